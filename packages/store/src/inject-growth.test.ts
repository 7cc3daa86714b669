import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { EntryFileCache } from "./caches/entry-file-cache.js";
import { COMMIT_JOURNAL } from "./commit-files.js";
import { tempDir } from "./__fixtures__/temp-dir.js";
import { injectMemory } from "./inject-memory.js";
import { growInjection, type InjectionGrowth } from "./inject-growth.js";

const CORPORA = resolve(__dirname, "../../../test/fixtures/corpora");

// The real 2026-04 bank and the example store, cached on a clock a minute ahead (settled), every
// file kept with its tail (`largeFileBytes: 0`: a file cut small below is read as a large one).
function realBank() {
  const root = tempDir("iflow-inject-growth-");
  const projectRoot = join(root, "project");
  const globalStoreDir = join(root, "store");
  cpSync(join(CORPORA, "iflow-kb-2026-04/docs/knowledge-bank"), join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  cpSync(join(CORPORA, "global-store-example"), globalStoreDir, { recursive: true });
  const cache: EntryFileCache = { dir: join(globalStoreDir, ".cache"), salt: "test 1", now: () => Date.now() + 60_000, largeFileBytes: 0 };
  const file = (category: string) => join(projectRoot, "docs/knowledge-bank", `${category}.md`);
  // Today's order, as `inject` plans it: with the cache and the growth; without: the files parsed whole.
  const plan = (options: { cache?: boolean; limit?: number } = {}) =>
    injectMemory({ projectRoot, globalStoreDir, includeGlobal: true, limit: options.limit ?? 20, maxChars: null, tracking: null, ...(options.cache === false ? {} : { cache, growth: true }) });
  return { file, plan, globalStoreDir };
}

// What a plan shows: its block, its entries and their sources.
const shown = (result: Awaited<ReturnType<ReturnType<typeof realBank>["plan"]>>) => ({
  block: result.plan.block,
  entries: result.plan.entries.map((entry) => entry.contentHash),
  sources: result.plan.sources,
  warnings: result.warnings.length,
});

// A small seeded generator (mulberry32): the same learnings at every run.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEADINGS = { "anti-patterns": "Anti-Pattern", patterns: "Pattern", heuristics: "Heuristic" } as const;
const WORDS = "retry budget timeout embedding call cache lock schema index review branch parser hook store fixture".split(" ");

// Learnings as retrospectives append them: mostly new, some copies of an entry of the bank (by
// its description), seen once or often, with or without a confidence and a date; now and then
// with a secret or a contest.
function learnings(next: () => number, category: keyof typeof HEADINGS, descriptions: string[], count: number): string {
  let text = "";
  for (let at = 0; at < count; at++) {
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
    const copy = next() < 0.3;
    const description = copy ? pick(descriptions) : `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} before ${pick(WORDS)} ${Math.floor(next() * 1e6)}.`;
    const lines = [`### ${HEADINGS[category]}: Learning ${Math.floor(next() * 1e6)}`, description];
    lines.push(`- Observation count: ${pick([1, 1, 1, 2, 3, 5, 9])}`);
    if (next() < 0.5) lines.push(`- Confidence: ${pick(["high", "medium", "low"])}`);
    if (next() < 0.4) lines.push(`- Last observed: ${pick(["2026-11-20T10:00:00Z", "2025-01-02T00:00:00Z", "Feature #12"])}`);
    if (next() < 0.05) lines.push("- Token: ghp_0123456789abcdefghijklmnopqrstuvwxyz01");
    if (next() < 0.05) lines.push(`- Contested with: sha256:${"0123456789abcdef"}`);
    text += `\n${lines.join("\n")}\n`;
  }
  return text;
}

describe("growInjection", () => {
  it("says a plan in today's order holds only where planning from the files shows the same: random learnings appended to the real bank", async () => {
    const { file, plan } = realBank();
    const before = await plan();
    expect(before.growth).not.toBeNull();
    const expected = shown(before);
    const descriptions = before.plan.entries.map((entry) => entry.description).concat((await plan({ cache: false })).plan.entries.map((entry) => entry.description));
    const next = random(22);
    let held = 0;
    let changed = 0;
    for (let round = 0; round < 60; round++) {
      const category = (["anti-patterns", "patterns", "heuristics"] as const)[round % 3]!;
      const path = file(category);
      const original = readFileSync(path, "utf8");
      writeFileSync(path, original + learnings(next, category, descriptions, 1 + Math.floor(next() * 3)));
      const grown = await growInjection(before.growth!, path);
      const now = shown(await plan({ cache: false }));
      if (grown !== null) {
        held++;
        expect(now, `round ${round}`).toEqual(expected);
      } else if (JSON.stringify(now) !== JSON.stringify(expected)) changed++;
      writeFileSync(path, original);
    }
    // Both sides met: learnings that leave the plan as it is, and learnings that change it.
    expect(held).toBeGreaterThan(15);
    expect(changed).toBeGreaterThan(5);
  }, 120_000);

  it("goes on from the file as it is now: learnings appended one after the other, each told from the growth before it", async () => {
    const { file, plan } = realBank();
    const before = await plan();
    const path = file("heuristics");
    let growth: InjectionGrowth = before.growth!;
    for (let round = 0; round < 4; round++) {
      writeFileSync(path, `${readFileSync(path, "utf8")}\n### Heuristic: Learning ${round}\nCount the retries of call ${round} before raising its timeout.\n- Observation count: 1\n`);
      const grown = await growInjection(growth, path);
      expect(grown, `round ${round}`).not.toBeNull();
      growth = grown!;
      expect(shown(await plan({ cache: false }))).toEqual(shown(before));
    }
    expect(growth.hashes.length).toBe(before.growth!.hashes.length + 4 * 16);
    // Told from the first growth, the four at once.
    expect(await growInjection(before.growth!, path)).not.toBeNull();
  }, 60_000);

  it("says a learning changes the plan where its category is shown whole, or it has no description as one shown", async () => {
    const { file, plan, globalStoreDir } = realBank();
    // Patterns cut to the knowledge bank's first, the global store's none: it is shown (three a category, where there are).
    const patterns = file("patterns");
    const text = readFileSync(patterns, "utf8");
    writeFileSync(patterns, `${text.slice(0, text.indexOf("\n### ", text.indexOf("\n### ") + 1) + 1)}- Observation count: 5\n`);
    writeFileSync(join(globalStoreDir, "patterns.md"), "# Patterns\n");
    // A learning without a description, seen often: shown.
    const heuristics = file("heuristics");
    writeFileSync(heuristics, `${readFileSync(heuristics, "utf8")}\n### Heuristic: Without a description\n- Observation count: 50\n`);
    const before = await plan();
    expect(before.growth!.categories.patterns).toEqual(expect.objectContaining({ more: false }));
    expect(before.plan.entries.map((entry) => entry.name)).toContain("Without a description");
    for (const [path, learning, name] of [
      [patterns, "\n### Pattern: Seen once\nA pattern seen once.\n- Observation count: 1\n", "Seen once"],
      [heuristics, "\n### Heuristic: Without one either\n- Observation count: 50\n- Confidence: high\n- Last observed: 2026-11-28T10:00:00Z\n", "Without one either"],
    ] as const) {
      const original = readFileSync(path, "utf8");
      writeFileSync(path, original + learning);
      expect((await plan({ cache: false })).plan.entries.map((entry) => entry.name)).toContain(name);
      expect(await growInjection(before.growth!, path), name).toBeNull();
      writeFileSync(path, original);
    }
  }, 30_000);

  it("tells nothing of a file changed other than by learnings appended after its last entry, or with a commit under way", async () => {
    const { file, plan } = realBank();
    const before = await plan();
    const path = file("heuristics");
    const original = readFileSync(path, "utf8");
    const learning = "\n### Heuristic: Appended\nCount the retries before raising the timeout.\n- Observation count: 1\n";
    const edits: Array<[string, string]> = [
      ["an entry before the end changed", original.replace("Observation count: 2", "Observation count: 3") + learning],
      ["the last entry grown", `${original}- Tags: retries\n${learning}`],
      ["the file cut and grown again", original.slice(0, original.length - 40) + learning + learning.replace("Appended", "Appended again")],
      ["nothing appended", original],
    ];
    // A commit under way beside the file (a journal: its appends not all made): read as the commit leaves it, not grown.
    const journal = join(path, "..", COMMIT_JOURNAL);
    writeFileSync(path, original + learning);
    writeFileSync(journal, "{}");
    expect(await growInjection(before.growth!, path), "a commit's journal beside the file").toBeNull();
    rmSync(journal);
    expect(original).toContain("Observation count: 2");
    for (const [name, text] of edits) {
      writeFileSync(path, text);
      expect(await growInjection(before.growth!, path), name).toBeNull();
    }
    writeFileSync(path, original + learning);
    expect(await growInjection(before.growth!, path)).not.toBeNull();
  }, 30_000);

  it("gives no growth where a plan cannot be told from one: no limit, a limit the bank does not fill", async () => {
    const { plan } = realBank();
    expect((await plan({ limit: -1 })).growth).toBeNull();
    expect((await plan({ limit: 1000 })).growth).toBeNull();
    expect((await plan({ limit: 20 })).growth).not.toBeNull();
  }, 30_000);
});
