import { execFileSync, spawnSync } from "node:child_process";
import { buildRelevanceIndex, entryOrders, indexTerms, sharedHashPrefixes } from "@iflow-memory/ranker";
import { hashContent, type Entry } from "@iflow-memory/parser";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { CORPORA_DIR, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it, vi } from "vitest";
import { entryFileCachePath } from "./entry-file-cache.js";
import {
  claimCacheRefresh,
  entryFileCache,
  forgetCachedInjection,
  handOverCacheRefresh,
  fingerprintChangedFile,
  injectionCachePath,
  injectionFingerprint,
  planCachePath,
  rankingCachePath,
  readCachedInjection,
  readCachedPlan,
  readCachedRanking,
  REFRESH_CLAIM_MS,
  releaseCacheRefresh,
  writeCachedInjection,
  writeCachedPlan,
} from "./injection-cache.js";
import { prepareSessionInjection } from "../prepare-session-injection.js";
import type { RankingData } from "./ranking-cache-file.js";

function project(): { projectRoot: string; globalStoreDir: string } {
  const base = makeTempDir();
  const projectRoot = join(base, "webshop");
  mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit often.\n- Observation count: 2\n");
  const globalStoreDir = join(base, "store");
  mkdirSync(globalStoreDir);
  return { projectRoot, globalStoreDir };
}

describe("injectionFingerprint", () => {
  it("stays the same while no source file changes", () => {
    const sources = project();
    expect(injectionFingerprint({ ...sources, salt: "1" }).value).toBe(injectionFingerprint({ ...sources, salt: "1" }).value);
  });

  it("changes when a knowledge-bank file is rewritten, a global file appears, the config appears, or the salt changes", () => {
    const sources = project();
    const fingerprints = [injectionFingerprint({ ...sources, salt: "1" }).value];
    writeFileSync(join(sources.projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit often!\n- Observation count: 2\n");
    fingerprints.push(injectionFingerprint({ ...sources, salt: "1" }).value);
    writeFileSync(join(sources.globalStoreDir, "heuristics.md"), "# Global Heuristics\n");
    fingerprints.push(injectionFingerprint({ ...sources, salt: "1" }).value);
    mkdirSync(join(sources.projectRoot, ".claude"));
    writeFileSync(join(sources.projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: 3\n---\n");
    fingerprints.push(injectionFingerprint({ ...sources, salt: "1" }).value);
    chmodSync(join(sources.projectRoot, ".claude/iflow-dev.local.md"), 0o600);
    fingerprints.push(injectionFingerprint({ ...sources, salt: "1" }).value);
    fingerprints.push(injectionFingerprint({ ...sources, salt: "2" }).value);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });

  it("counts the bytes of the files it stamps", () => {
    const sources = project();
    const before = injectionFingerprint({ ...sources, salt: "1" }).bytes;
    writeFileSync(join(sources.globalStoreDir, "heuristics.md"), "# Global Heuristics\n");
    expect(injectionFingerprint({ ...sources, salt: "1" }).bytes).toBe(before + "# Global Heuristics\n".length);
  });

  it("is not settled while a file changed within the last two seconds", () => {
    const sources = project();
    expect(injectionFingerprint({ ...sources, salt: "1" }).settled).toBe(false);
    expect(injectionFingerprint({ ...sources, salt: "1", now: Date.now() + 2_500 }).settled).toBe(true);
  });
});

describe("fingerprintChangedFile", () => {
  it("names the one file that changed between two fingerprints, a regular file in both; null for anything else", () => {
    const sources = project();
    const patterns = join(sources.projectRoot, "docs/knowledge-bank/patterns.md");
    const heuristics = join(sources.globalStoreDir, "heuristics.md");
    writeFileSync(heuristics, "# Global Heuristics\n");
    const take = (salt = "1") => injectionFingerprint({ ...sources, salt }).value;
    const first = take();
    expect(fingerprintChangedFile(first, take())).toBeNull();
    writeFileSync(patterns, "### Pattern: Small Steps\nCommit often.\n- Observation count: 2\n\n### Pattern: Tests first\nWrite the test.\n");
    const grown = take();
    expect(fingerprintChangedFile(first, grown)).toBe(patterns);
    // Two files changed; another salt; a file gone; a file that became a folder.
    writeFileSync(heuristics, "# Global Heuristics\n\n### Heuristic: More\nMore.\n");
    expect([fingerprintChangedFile(first, take()), fingerprintChangedFile(grown, take("2"))]).toEqual([null, null]);
    const both = take();
    rmSync(heuristics);
    expect(fingerprintChangedFile(both, take())).toBeNull();
    mkdirSync(heuristics);
    expect(fingerprintChangedFile(both, take())).toBeNull();
  });
});

describe("readCachedInjection", () => {
  it("returns what was written under the same fingerprint, and null under another; what relevance ranks is read apart (readCachedRanking)", async () => {
    const sources = project();
    const { ranking, ...injection } = await prepareSessionInjection(sources);
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    await writeCachedInjection(path, "fingerprint-a", { ...injection, ranking: ranking! });
    // The index as its terms and their postings: the cache's is read a term at a time.
    // (The cache's entries, made as they are read, are its candidates: the same entries, in order;
    // its facts, read from its columns, are held to them in ranking-cache-file.test.ts.)
    const plain = ({ index, entries, facts: _facts, ...rest }: RankingData) => ({ ...(JSON.parse(JSON.stringify(rest)) as object), documents: index.documents, terms: Object.fromEntries(indexTerms(index)), ...(entries === undefined ? {} : { entries: JSON.parse(JSON.stringify([...entries])) as unknown }) });
    expect([readCachedInjection(path, "fingerprint-a"), plain(readCachedRanking(path, "fingerprint-a")!)]).toEqual([injection, { ...plain(ranking!), entries: JSON.parse(JSON.stringify(ranking!.candidates)) as unknown }]);
    expect([readCachedInjection(path, "fingerprint-b"), readCachedRanking(path, "fingerprint-b")]).toEqual([null, null]);
    expect(existsSync(rankingCachePath(path))).toBe(true);
  });

  it("writes the injection, the plan and the ranking's header in ASCII, read back as they were: text past ASCII escaped", async () => {
    const sources = project();
    writeFileSync(join(sources.projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Größe prüfen — 🙂\nCheck the size first — then retry.\n- Observation count: 2\n");
    const { ranking, ...injection } = await prepareSessionInjection(sources);
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    await writeCachedInjection(path, "fingerprint-a", { ...injection, ranking: ranking! });
    const plan = { ...injection.plan, ranking: "relevance" as const };
    await writeCachedPlan(path, "fingerprint-a", '{"branch":"fix/größe"}', plan);
    const rankingBytes = readFileSync(rankingCachePath(path));
    for (const text of [readFileSync(path, "latin1"), readFileSync(planCachePath(path), "latin1"), rankingBytes.toString("latin1", 0, rankingBytes.indexOf(10))]) expect(text).toMatch(/^[\x00-\x7f]*$/);
    expect(readCachedInjection(path, "fingerprint-a")).toEqual(injection);
    expect(injection.plan.block).toContain("Größe prüfen — 🙂");
    expect(readCachedPlan(path, "fingerprint-a")).toEqual({ query: '{"branch":"fix/größe"}', plan });
    expect(readCachedRanking(path, "fingerprint-a")!.entries!.at(0)!.name).toBe("Größe prüfen — 🙂");
  });

  it("treats a missing or corrupt cache file as no cache", () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    expect(readCachedInjection(path, "x")).toBeNull();
    mkdirSync(join(sources.globalStoreDir, ".cache"));
    writeFileSync(path, '{"fingerprint":"x","injection":{"plan":');
    expect(readCachedInjection(path, "x")).toBeNull();
  });

  it("treats a cache file whose injection is not of the shape a start reads as no cache (a damaged config, warnings or plan)", async () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    const { ranking, ...injection } = await prepareSessionInjection(sources);
    await writeCachedInjection(path, "x", { ...injection, ranking: ranking! });
    expect(readCachedInjection(path, "x")).toEqual(injection);
    // As written: the injection without today's plan, then today's plan on a line of its own.
    const write = ({ plan, ...head }: Record<string, unknown>) => writeFileSync(path, `${JSON.stringify({ fingerprint: "x", injection: head })}\n${JSON.stringify(plan)}`);
    const original = { ...injection.config, injectionRanking: "original" };
    const damaged = [
      { ...injection, config: { ...injection.config, injectionEvents: 7 } },
      { ...injection, config: { ...injection.config, injectionEvents: ["startup", 7] } },
      { ...injection, config: { ...injection.config, injectionRanking: "best" } },
      { ...injection, config: { ...injection.config, injectionLimit: "20" } },
      { ...injection, config: null },
      { ...injection, warnings: {} },
      { ...injection, configWarnings: null },
      // Today's order reads its plan at once.
      { ...injection, config: original, plan: { ...injection.plan, entries: "none" } },
      { ...injection, config: original, plan: null },
    ];
    for (const value of damaged) {
      write(value);
      expect(readCachedInjection(path, "x")).toBeNull();
    }
    writeFileSync(path, JSON.stringify({ fingerprint: "x", injection }));
    expect(readCachedInjection(path, "x")).toBeNull();
    // Relevance reads today's plan only when its signals give nothing to rank by: a damaged one is
    // told then (the hook fails open and forgets the cache; the next start works it out).
    write({ ...injection, plan: { ...injection.plan, entries: "none" } });
    const lazy = readCachedInjection(path, "x")!;
    expect(lazy.config).toEqual(injection.config);
    expect(() => lazy.plan).toThrow(/holds a damaged plan/);
  });

  it("parses today's plan of an injection that ranks by relevance when it is first read, and at once for today's order", async () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    const { ranking, ...injection } = await prepareSessionInjection(sources);
    const parse = vi.spyOn(JSON, "parse");
    try {
      for (const injectionRanking of ["relevance", "original"] as const) {
        const written = { ...injection, config: { ...injection.config, injectionRanking } };
        await writeCachedInjection(path, "x", { ...written, ranking: ranking! });
        parse.mockClear();
        const read = readCachedInjection(path, "x")!;
        const plansParsed = () => parse.mock.calls.filter(([text]) => typeof text === "string" && text.startsWith('{"block":')).length;
        expect(plansParsed()).toBe(injectionRanking === "original" ? 1 : 0);
        expect(read).toEqual(written);
        expect(plansParsed()).toBe(1);
      }
    } finally {
      parse.mockRestore();
    }
  });

  it.runIf(process.platform !== "win32")("treats a FIFO in the cache file's place as no cache, without waiting for a writer, and a new cache replaces it", async () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    mkdirSync(join(sources.globalStoreDir, ".cache"));
    execFileSync("mkfifo", [path]);
    expect(readCachedInjection(path, "x")).toBeNull();
    const { ranking, ...injection } = await prepareSessionInjection(sources);
    await writeCachedInjection(path, "x", { ...injection, ranking: ranking! });
    expect(readCachedInjection(path, "x")).toEqual(injection);
  });
});

describe("forgetCachedInjection", () => {
  it("removes the project's injection, ranking, plan and its memory files' kept entries; nothing else", async () => {
    const sources = project();
    const other = project();
    const cache = entryFileCache(sources.globalStoreDir);
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    const otherPath = injectionCachePath(sources.globalStoreDir, other.projectRoot);
    for (const [root, at] of [[sources.projectRoot, path], [other.projectRoot, otherPath]] as const) {
      const injection = await prepareSessionInjection({ projectRoot: root, globalStoreDir: sources.globalStoreDir, fileCache: { ...cache, now: () => Date.now() + 60_000 } });
      await writeCachedInjection(at, "x", injection);
      await writeCachedPlan(at, "x", "q", { ...injection.plan, ranking: "original" });
    }
    const kept = (root: string) => ["anti-patterns", "patterns", "heuristics"].map((category) => entryFileCachePath(cache, join(root, "docs/knowledge-bank", `${category}.md`)));
    // Each project's patterns.md was kept.
    expect([sources.projectRoot, other.projectRoot].map((root) => kept(root).filter((file) => existsSync(file)).length)).toEqual([1, 1]);
    const before = readdirSync(join(sources.globalStoreDir, ".cache", "files")).sort();
    forgetCachedInjection(sources.globalStoreDir, sources.projectRoot);
    const mine = [path, rankingCachePath(path), planCachePath(path)];
    expect(mine.filter((file) => existsSync(file))).toEqual([]);
    expect([otherPath, rankingCachePath(otherPath), planCachePath(otherPath)].every((file) => existsSync(file))).toBe(true);
    expect(kept(sources.projectRoot).filter((file) => existsSync(file))).toEqual([]);
    expect(kept(other.projectRoot).filter((file) => existsSync(file))).toHaveLength(1);
    expect(readdirSync(join(sources.globalStoreDir, ".cache", "files")).sort()).toEqual(before.filter((name) => !kept(sources.projectRoot).some((file) => file.endsWith(name))));
    expect(existsSync(join(sources.projectRoot, "docs/knowledge-bank/patterns.md"))).toBe(true);
  });
});

describe("readCachedRanking", () => {
  const realBank = { projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") };

  it("reads an entry's text from the file as it was opened, even after a newer cache took its place", async () => {
    const { ranking, ...injection } = await prepareSessionInjection(realBank);
    const path = join(makeTempDir(), ".cache/injection-x.json");
    await writeCachedInjection(path, "a", { ...injection, ranking: ranking! });
    const opened = readCachedRanking(path, "a")!;
    // A newer cache renamed into its place: other entries, other lines.
    const candidates = ranking!.candidates.slice(7).reverse();
    const others = { ...ranking!, candidates, orders: entryOrders(candidates), sharedHashPrefixes: sharedHashPrefixes(candidates) };
    await writeCachedInjection(path, "b", { ...injection, ranking: others });
    const texts = (entries: readonly Entry[]) => entries.map((entry) => [entry.name, entry.description, entry.metadataText]);
    expect(texts(opened.candidates)).toEqual(texts(ranking!.candidates));
    expect(texts(readCachedRanking(path, "b")!.candidates)).toEqual(texts(others.candidates));
  });

  it.runIf(process.platform !== "win32")("is null for a cut file, a file without a first line, a folder or a FIFO in its place, without waiting", async () => {
    const sources = project();
    const { ranking, ...injection } = await prepareSessionInjection(sources);
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    await writeCachedInjection(path, "x", { ...injection, ranking: ranking! });
    const whole = readFileSync(rankingCachePath(path));
    const outcomes = [readCachedRanking(path, "x") === null];
    writeFileSync(rankingCachePath(path), whole.subarray(0, -5));
    outcomes.push(readCachedRanking(path, "x") === null);
    writeFileSync(rankingCachePath(path), whole.subarray(0, whole.indexOf(10)));
    outcomes.push(readCachedRanking(path, "x") === null);
    rmSync(rankingCachePath(path));
    mkdirSync(rankingCachePath(path));
    outcomes.push(readCachedRanking(path, "x") === null);
    rmSync(rankingCachePath(path), { recursive: true });
    execFileSync("mkfifo", [rankingCachePath(path)]);
    outcomes.push(readCachedRanking(path, "x") === null);
    expect(outcomes).toEqual([false, true, true, true, true]);
  });
});

describe("claimCacheRefresh", () => {
  it("grants one claim until it is released, making the cache folder if needed", () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    expect([claimCacheRefresh(path), claimCacheRefresh(path)]).toEqual(["claimed", "taken"]);
    releaseCacheRefresh(path);
    expect(existsSync(`${path}.refreshing`)).toBe(false);
    expect(claimCacheRefresh(path)).toBe("claimed");
  });

  it("takes over a claim older than REFRESH_CLAIM_MS (its refresh died)", () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    expect(claimCacheRefresh(path)).toBe("claimed");
    const old = (Date.now() - REFRESH_CLAIM_MS - 60_000) / 1000;
    utimesSync(`${path}.refreshing`, old, old);
    expect([claimCacheRefresh(path), claimCacheRefresh(path)]).toEqual(["claimed", "taken"]);
  });

  it("names the process that holds it, and then the refresh it is handed over to", () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    const holder = () => JSON.parse(readFileSync(`${path}.refreshing`, "utf8")) as unknown;
    expect(claimCacheRefresh(path)).toBe("claimed");
    expect(holder()).toEqual({ pid: process.pid, host: hostname() });
    handOverCacheRefresh(path, 4242);
    expect(holder()).toEqual({ pid: 4242, host: hostname() });
  });

  it("takes over at once a claim whose process has ended on this machine (a start killed before it started its refresh), whatever its age", () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    // The id of a process that ran and ended (reused since only by chance: then the claim holds, as any young one).
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid!;
    expect(claimCacheRefresh(path)).toBe("claimed");
    handOverCacheRefresh(path, ended);
    expect([claimCacheRefresh(path), claimCacheRefresh(path)]).toEqual(["claimed", "taken"]);
    // Handed over to a refresh that runs (this process), it holds.
    handOverCacheRefresh(path, process.pid);
    expect(claimCacheRefresh(path)).toBe("taken");
  });

  it("leaves a young claim to its age where the process table cannot tell: another machine's, or one that names no one (an earlier build's)", () => {
    const sources = project();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid!;
    mkdirSync(dirname(path), { recursive: true });
    for (const text of [`${JSON.stringify({ pid: ended, host: `not-${hostname()}` })}\n`, "", "{not json", `${JSON.stringify({ pid: -1, host: hostname() })}\n`]) {
      writeFileSync(`${path}.refreshing`, text);
      expect(claimCacheRefresh(path)).toBe("taken");
      const old = (Date.now() - REFRESH_CLAIM_MS - 60_000) / 1000;
      utimesSync(`${path}.refreshing`, old, old);
      expect(claimCacheRefresh(path)).toBe("claimed");
    }
  });

  it("is impossible where the cache folder cannot be made", () => {
    const sources = project();
    writeFileSync(join(sources.globalStoreDir, ".cache"), "a file, not a folder");
    expect(claimCacheRefresh(injectionCachePath(sources.globalStoreDir, sources.projectRoot))).toBe("impossible");
  });
});

describe("prepareSessionInjection", () => {
  it("plans today's injection with the config's limit and budget, keeps only what tracking needs of each entry, and indexes the candidates for relevance", async () => {
    const sources = project();
    const injection = await prepareSessionInjection(sources);
    expect({ ...injection, ranking: injection.ranking?.candidates.map((entry) => entry.name) }).toEqual({
      config: {
        injectionEnabled: true,
        injectionLimit: 20,
        injectionMaxChars: 9000,
        injectionEvents: ["startup", "resume", "clear", "fork"],
        globalEnabled: true,
        injectionRanking: "relevance",
        injectionIndex: true,
        promptRecall: true,
        promptRecallLimit: 5,
      },
      configWarnings: [],
      plan: {
        block: "## Engineering Memory (from knowledge bank)\n\n### Patterns to Follow\n### Pattern: Small Steps\nCommit often.\n- Observation count: 2\n\n---\n",
        entries: [{ name: "Small Steps", contentHash: hashContent("Commit often.") }],
        sources: { local: 1, global: 0 },
        droppedForBudget: 0,
      },
      ranking: ["Small Steps"],
      warnings: [],
    });
    const built = buildRelevanceIndex(injection.ranking!.candidates);
    expect([injection.ranking?.index.documents, Object.fromEntries(indexTerms(injection.ranking!.index))]).toEqual([built.documents, { ...built.postings }]);
  });

  it("reads no entry at all when the config turns injection off", async () => {
    const sources = project();
    mkdirSync(join(sources.projectRoot, ".claude"));
    writeFileSync(join(sources.projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_enabled: false\n---\n");
    const injection = await prepareSessionInjection(sources);
    expect([injection.config.injectionEnabled, injection.plan]).toEqual([false, { block: "", entries: [], sources: { local: 0, global: 0 }, droppedForBudget: 0 }]);
  });
});
