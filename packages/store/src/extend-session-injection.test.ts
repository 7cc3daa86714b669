import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { indexTerms, indexVocabulary, type RelevanceQuery } from "@iflow-memory/ranker";
import { describe, expect, it } from "vitest";
import { tempDir } from "./__fixtures__/temp-dir.js";
import type { EntryFileCache } from "./caches/entry-file-cache.js";
import { injectionCachePath, injectionFingerprint, readCachedInjectionOrEarlier, readCachedRanking, writeCachedInjection } from "./caches/injection-cache.js";
import { extendSessionInjection } from "./extend-session-injection.js";
import { plainSessionInjection, prepareSessionInjection, type SessionInjection } from "./prepare-session-injection.js";
import { planPromptRecall, planSessionStart } from "./relevance/plan-session-injection.js";

const CORPORA = resolve(__dirname, "../../../test/fixtures/corpora");
const SALT = "test grown";

// Queries of sessions on the real bank: its words, the learnings' words, and words it never uses.
const QUERIES: RelevanceQuery[] = [
  { branch: "fix/retry-budget-timeouts", changedFiles: ["semantic_memory/retry.py"], commitSubjects: ["Raise the embedding call timeout"] },
  { branch: "feat/skill-line-budget", changedFiles: ["SKILL.md", "references/orchestrator.md"] },
  { text: "check the retry budget before raising a timeout; count the retries of the webhook queue" },
  { text: "make the pricing page css grid stack on mobile" },
  { branch: "feature/033-reference-file-sizing", changedFiles: ["docs/knowledge-bank/heuristics.md"], commitSubjects: ["Split the orchestrator into reference files"] },
];

// The real 2026-04 bank and the example store, their injection worked out and cached as the
// background refresh does (every file kept, its ranking with what grows it), on a clock a minute
// ahead (settled).
async function cachedBank({ corpus = "iflow-kb-2026-04", worker = false } = {}) {
  const root = tempDir("iflow-grown-");
  const projectRoot = join(root, "project");
  const globalStoreDir = join(root, "store");
  cpSync(join(CORPORA, corpus, "docs/knowledge-bank"), join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  cpSync(join(CORPORA, "global-store-example"), globalStoreDir, { recursive: true });
  const now = () => Date.now() + 60_000;
  const fileCache: EntryFileCache = { dir: join(globalStoreDir, ".cache"), salt: SALT, now };
  const path = injectionCachePath(globalStoreDir, projectRoot);
  const fingerprint = () => injectionFingerprint({ projectRoot, globalStoreDir, salt: SALT, now: now() });
  // Worked out in a worker (files over 4 MiB): made plain for its message, its index built whole.
  const prepared = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache });
  await writeCachedInjection(path, fingerprint().value, worker ? plainSessionInjection(prepared) : prepared);
  const bank = (name: string) => join(projectRoot, "docs/knowledge-bank", `${name}.md`);
  // The cached injection of the files before they changed, its ranking read back from its cache.
  const earlier = (): SessionInjection => {
    const cached = readCachedInjectionOrEarlier(path, fingerprint(), { earlier: true })!;
    expect(cached.stale).toBe(true);
    const ranking = readCachedRanking(path, cached.fingerprint)!;
    expect(ranking.growth).toBeDefined();
    return { ...cached.injection, ranking };
  };
  // What a start that reads the files gives (taking what is kept of those that did not change, keeping nothing).
  const read = () => prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: { ...fileCache, readOnly: true } });
  return { projectRoot, globalStoreDir, bank, earlier, read };
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

// Everything a session start, a prompt and a cache read of the grown injection, as of the one read from the files.
function expectSame(grown: SessionInjection, read: SessionInjection): void {
  const [a, b] = [grown.ranking!, read.ranking!];
  expect(plain(grown.plan)).toEqual(plain(read.plan));
  expect(grown.warnings).toEqual(read.warnings);
  expect(grown.config).toEqual(read.config);
  expect(JSON.stringify(Array.from(a.entries ?? a.candidates))).toBe(JSON.stringify(b.candidates));
  for (const order of ["order", "recency", "inOrder"] as const) expect(Array.from(a.orders[order]!)).toEqual(Array.from(b.orders[order]!));
  expect(a.sharedHashPrefixes).toEqual(b.sharedHashPrefixes);
  expect(a.index.documents).toBe(b.index.documents);
  expect(indexVocabulary(a.index)).toBe(indexVocabulary(b.index));
  const terms = new Map(indexTerms(b.index));
  expect(new Set([...indexTerms(a.index)].map(([term]) => term))).toEqual(new Set(terms.keys()));
  for (const [term, text] of indexTerms(a.index)) expect(text, term).toBe(terms.get(term));
  for (const query of QUERIES) {
    expect(planSessionStart(grown, query, { fetch: "mcp" })).toEqual(planSessionStart(read, query, { fetch: "mcp" }));
    if (query.text !== undefined) expect(planPromptRecall(grown, query.text, new Set())).toEqual(planPromptRecall(read, query.text, new Set()));
  }
}

const learning = (name: string, body: string, metadata = "- Source: Feature #041\n- Last observed: 2026-05-02\n- Observation count: 1\n") => `\n### ${name}\n${body}\n${metadata}`;

describe("extendSessionInjection", () => {
  it("grows the injection by a learning appended to the knowledge bank's heuristics: what reading the files gives", async () => {
    const bank = await cachedBank();
    appendFileSync(bank.bank("heuristics"), learning("Check the Retry Budget First", "Before raising a timeout, count the retries the webhook queue makes."));
    const grown = await extendSessionInjection(bank.earlier(), { projectRoot: bank.projectRoot });
    expect(grown).not.toBeNull();
    const read = await bank.read();
    expect(read.ranking!.candidates.some((entry) => entry.name === "Check the Retry Budget First")).toBe(true);
    expectSame(grown!, read);
  });

  it("grows it by learnings appended to the first file, the candidates after them moved: the same as read", async () => {
    const bank = await cachedBank();
    appendFileSync(
      bank.bank("anti-patterns"),
      learning("Raising Timeouts Before Counting Retries", "A longer timeout hides a retry storm; the queue backs up behind it.", "- Source: Feature #041; Feature #042; Feature #043; Feature #044; Feature #045; Feature #046\n- Observation count: 3\n- Confidence: high\n") +
        learning("Retry Loops Without a Budget", "Retries without a budget turn one slow call into a thundering herd.") +
        learning("Undated Learning", "No date, no count: it sorts by its place in the file.", ""),
    );
    const grown = await extendSessionInjection(bank.earlier(), { projectRoot: bank.projectRoot });
    expect(grown).not.toBeNull();
    expectSame(grown!, await bank.read());
  });

  it("grows an injection worked out in a worker as one worked out in the hook's thread", async () => {
    const bank = await cachedBank({ worker: true });
    appendFileSync(bank.bank("heuristics"), learning("Check the Retry Budget First", "Before raising a timeout, count the retries the webhook queue makes."));
    const grown = await extendSessionInjection(bank.earlier(), { projectRoot: bank.projectRoot });
    expect(grown).not.toBeNull();
    expectSame(grown!, await bank.read());
  });

  it("grows it by a learning appended to the patterns, and declines once another file changed too", async () => {
    const bank = await cachedBank();
    appendFileSync(bank.bank("patterns"), learning("Budgeted Retries", "Give each call a retry budget and spend it before failing over."));
    const earlier = bank.earlier();
    const grown = await extendSessionInjection(earlier, { projectRoot: bank.projectRoot });
    expect(grown).not.toBeNull();
    expectSame(grown!, await bank.read());
    // Another file changed too: read from the files.
    appendFileSync(bank.bank("heuristics"), learning("Another One", "Changed as well."));
    expect(await extendSessionInjection(earlier, { projectRoot: bank.projectRoot })).toBeNull();
  });

  it("declines where growing could give other than reading: a file changed before its end, two files, a secret, a copy, an edit of the last entry, nothing appended, a commit under way", async () => {
    const cases: [string, (bank: Awaited<ReturnType<typeof cachedBank>>) => void][] = [
      ["changed before its end", (bank) => writeFileSync(bank.bank("heuristics"), readFileSync(bank.bank("heuristics"), "utf8").replace("Target ~100-160 lines", "Target ~120-160 lines") + learning("New", "Body."))],
      ["two files", (bank) => (appendFileSync(bank.bank("heuristics"), learning("New", "Body.")), appendFileSync(bank.bank("patterns"), learning("Other", "Body.")))],
      ["a secret", (bank) => appendFileSync(bank.bank("heuristics"), learning("Rotate the Key", "The old key ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked."))],
      ["a copy of a candidate", (bank) => appendFileSync(bank.bank("heuristics"), `\n### Reference File Sizing Again\n${readFileSync(bank.bank("heuristics"), "utf8").split("### Reference File Sizing\n")[1]!.split("\n- ")[0]}\n- Observation count: 1\n`)],
      ["a line added to the last entry", (bank) => appendFileSync(bank.bank("heuristics"), "- Also seen: Feature #041\n")],
      ["a blank line", (bank) => appendFileSync(bank.bank("heuristics"), "\n")],
      // A promotion under way in the global store: the files are read as it commits them.
      ["a commit's journal", (bank) => (appendFileSync(bank.bank("heuristics"), learning("New", "Body.")), writeFileSync(join(bank.globalStoreDir, ".commit.json"), "{}"))],
    ];
    for (const [what, change] of cases) {
      const bank = await cachedBank();
      change(bank);
      expect(await extendSessionInjection(bank.earlier(), { projectRoot: bank.projectRoot }), what).toBeNull();
    }
  });
});
