import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildRelevanceIndex, entryOrders, injectionCandidates, PackedTerms, planInjection, sharedHashPrefixes } from "@iflow-memory/ranker";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prepareSessionInjection } from "../prepare-session-injection.js";
import { readMemorySources } from "../read-memory-sources.js";
import { keptCacheFileBytes, readKeptCacheFile } from "../__fixtures__/kept-cache-file.js";
import { entryFileCachePath, type EntryFileCache } from "./entry-file-cache.js";
import { decodeRankingCache, encodeRankingCache } from "./ranking-cache-file.js";
import { tempDir } from "../__fixtures__/temp-dir.js";

const CORPORA = resolve(__dirname, "../../../../test/fixtures/corpora");
const LEARNING = "\n### Heuristic: Check the retry budget first\nBefore raising a timeout, count the retries.\n- Observation count: 1\n";

// The real 2026-04 bank and the example store, every file kept as a large one (`largeFileBytes: 0`:
// the real bank's files are smaller than the default), on a clock a minute ahead (settled). A
// learning marked contested is added to the bank, and a copy of it with a higher count and a
// Source line of five provenances (cut to three when injected) to the store: the copy is kept,
// the contest carried to it, its Source line cut — the candidates that are not passed on unread.
function realSources() {
  const root = tempDir("iflow-file-lazy-");
  const projectRoot = join(root, "project");
  const globalStoreDir = join(root, "store");
  cpSync(join(CORPORA, "iflow-kb-2026-04/docs/knowledge-bank"), join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  cpSync(join(CORPORA, "global-store-example"), globalStoreDir, { recursive: true });
  const patterns = join(projectRoot, "docs/knowledge-bank/patterns.md");
  appendFileSync(patterns, "\n### Pattern: Pin the toolchain\nPin node and pnpm in CI.\n- Contested with: sha256:0123456789abcdef\n");
  appendFileSync(join(globalStoreDir, "patterns.md"), "\n### Pattern: Pin the toolchain\nPin node and pnpm in CI.\n- Observation count: 4\n- Source: a, F1; b, F2; c, F3; d, F4; e, F5\n");
  const cache: EntryFileCache = { dir: join(globalStoreDir, ".cache"), salt: "test 1", now: () => Date.now() + 60_000, largeFileBytes: 0 };
  const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
  const read = (withCache = true) => readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, ...(withCache ? { cache, terms: true } : {}) });
  return { projectRoot, globalStoreDir, cache, heuristics, read };
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
// How many times JSON.parse runs in `work`: once per entry line a read parses.
async function parsesIn<T>(work: () => Promise<T> | T): Promise<{ result: T; parses: number }> {
  const spy = vi.spyOn(JSON, "parse");
  try {
    const result = await work();
    return { result, parses: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("a large file's kept entries", () => {
  it("whose vocabulary was damaged on disk (its last term gone): read anew, as a read without a cache reads it, and kept again", async () => {
    const { projectRoot, globalStoreDir, cache, heuristics } = realSources();
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    const path = entryFileCachePath(cache, heuristics);
    const good = readFileSync(path);
    const kept = readKeptCacheFile(path);
    writeFileSync(path, keptCacheFileBytes({ ...kept, meta: { ...kept.meta, vocabulary: kept.meta.vocabulary.slice(0, -1) } }, { resign: false }));
    const damaged = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    expect(plain(damaged)).toEqual(plain(await prepareSessionInjection({ projectRoot, globalStoreDir })));
    expect(readFileSync(path).equals(good)).toBe(true);
  });

  it("whose vocabulary lacks a term its words name (a cache written so, its checksum matching): a session's plan still made, and the file kept anew after an edit as a read without a cache keeps it", async () => {
    const { projectRoot, globalStoreDir, cache, heuristics } = realSources();
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    const path = entryFileCachePath(cache, heuristics);
    const kept = readKeptCacheFile(path);
    const last = kept.meta.vocabulary.length - 1;
    expect(kept.terms.some((fields) => fields.some((field) => field.includes(last)))).toBe(true);
    writeFileSync(path, keptCacheFileBytes({ ...kept, meta: { ...kept.meta, vocabulary: kept.meta.vocabulary.slice(0, -1) } }));
    const damaged = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: { ...cache, readOnly: true } });
    expect(damaged.ranking?.candidates.length).toBe((await prepareSessionInjection({ projectRoot, globalStoreDir })).ranking?.candidates.length);
    appendFileSync(heuristics, LEARNING);
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    const fresh = { ...cache, dir: join(globalStoreDir, ".cache-fresh") };
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: fresh });
    const terms = (file: ReturnType<typeof readKeptCacheFile>) => file.terms.map((fields) => fields.map((field) => field.map((at) => file.meta.vocabulary[at])));
    expect(terms(readKeptCacheFile(path))).toEqual(terms(readKeptCacheFile(entryFileCachePath(fresh, heuristics))));
  });

  it("of a file that only grew are kept again with the kept entries' words as they were packed, only the learnings appended tokenized: the terms a read without a cache keeps", async () => {
    const { projectRoot, globalStoreDir, cache, heuristics } = realSources();
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    // A large file (the bank's) and a small one (the store's, read whole: its own cache kind).
    const small = { ...cache, dir: join(globalStoreDir, ".cache-small"), largeFileBytes: 1 << 20 };
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: small });
    appendFileSync(heuristics, LEARNING);
    appendFileSync(join(globalStoreDir, "heuristics.md"), LEARNING);
    const numbersAt = vi.spyOn(PackedTerms.prototype, "numbersAt");
    for (const kept of [cache, small]) await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: kept });
    expect(numbersAt).not.toHaveBeenCalled();
    const fresh = { ...cache, dir: join(globalStoreDir, ".cache-fresh") };
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: fresh });
    const terms = (file: ReturnType<typeof readKeptCacheFile>) => file.terms.map((fields) => fields.map((field) => field.map((at) => file.meta.vocabulary[at])));
    for (const path of [heuristics, join(globalStoreDir, "heuristics.md")]) {
      const expected = terms(readKeptCacheFile(entryFileCachePath(fresh, path)));
      for (const kept of [cache, small]) expect(terms(readKeptCacheFile(entryFileCachePath(kept, path)))).toEqual(expected);
    }
  });

  it("are read without parsing their lines, and give what parsing the files gives", async () => {
    const { read } = realSources();
    const parsed = await read(false);
    await read();
    const { result: kept, parses } = await parsesIn(read);
    // Two lines per cache file (its header and its terms), one entry per file for its tail: not 285 entries.
    expect(kept.local.length + kept.global.length).toBeGreaterThan(280);
    expect(parses).toBeLessThan(20);
    expect(plain(kept.local)).toEqual(plain(parsed.local));
    expect(plain(kept.global)).toEqual(plain(parsed.global));
    expect(kept.warnings).toEqual(parsed.warnings);
  });

  it("are chosen from, indexed and put in today's order unread; what is shown is the same", async () => {
    const { projectRoot, read } = realSources();
    const parsed = await read(false);
    await read();
    const kept = await read();
    const choose = (sources: typeof kept) => {
      const candidates = injectionCandidates({ local: sources.local, global: sources.global, project: "project" });
      return { candidates, index: buildRelevanceIndex(candidates, undefined, sources.terms), orders: entryOrders(candidates), sharedHashPrefixes: sharedHashPrefixes(candidates) };
    };
    const { result: lazy, parses } = await parsesIn(() => choose(kept));
    // The two copies of the contested learning: read. The rest (18 copies of the bank's entries in
    // the store among them) not.
    expect(parses).toBeLessThanOrEqual(2);
    const whole = choose(parsed);
    expect(plain(lazy.candidates)).toEqual(plain(whole.candidates));
    expect(lazy.candidates.find((entry) => entry.name === "Pin the toolchain")!.metadata.Source).toBe("c, F3; d, F4; e, F5 (and 2 earlier)");
    expect(lazy.candidates.find((entry) => entry.name === "Pin the toolchain")!.metadata["Contested with"]).toBe("sha256:0123456789abcdef");
    expect(lazy.index).toEqual(whole.index);
    expect(lazy.orders).toEqual(whole.orders);
    expect(lazy.sharedHashPrefixes).toEqual(whole.sharedHashPrefixes);
    const plan = (ranking: typeof lazy) =>
      planInjection({ candidates: ranking.candidates, limit: 20, maxChars: 9000, index: { fetch: "mcp", share: 0.7, maxLines: 150, matchesInFull: 5 }, ranking: { orders: ranking.orders }, sharedHashPrefixes: ranking.sharedHashPrefixes });
    expect(plan(lazy).block).toBe(plan(whole).block);
    expect(projectRoot).not.toBe("");
  });

  it("give their names from the start of their lines, the rest unparsed: the names parsing gives, quotes, backslashes and characters of several bytes included", async () => {
    const { heuristics, read } = realSources();
    const name = 'Quote "the budget" \\ before \\" a timeout — ünïcode 🎉 ends';
    // Not the file's last entry (the tail, parsed to be checked at the next read).
    appendFileSync(heuristics, `\n### Heuristic: ${name}\nA name with characters a JSON string escapes or encodes in several bytes.\n- Observation count: 1\n${LEARNING}`);
    const whole = await read(false);
    await read();
    const kept = await read();
    const parse = vi.spyOn(JSON, "parse");
    const names = [...kept.local, ...kept.global].map((entry) => entry.name);
    // What was parsed: the names with escapes (JSON strings), never an entry's line.
    const parsed = parse.mock.calls.map(([text]) => text);
    parse.mockRestore();
    expect(parsed).toContain(JSON.stringify(name));
    expect(parsed.filter((text) => !text.startsWith('"'))).toEqual([]);
    expect(names).toEqual([...whole.local, ...whole.global].map((entry) => entry.name));
    expect(names).toContain(name);
  });

  it("give the session's injection and ranking cache byte for byte as a read without a cache", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const parsed = await prepareSessionInjection({ projectRoot, globalStoreDir });
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    const kept = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    expect(kept.plan).toEqual(parsed.plan);
    // The ranking alone (a copy leaves out the files it was read from: what a cache of it keeps to grow it by).
    expect(Buffer.compare(encodeRankingCache("f", { ...kept.ranking! }), encodeRankingCache("f", parsed.ranking!))).toBe(0);
    // Read with the cache, the files are known, and its cache keeps what grows it; read without, not.
    expect(decodeRankingCache(encodeRankingCache("f", kept.ranking!), "f")!.growth?.files.map((file) => [file.category, file.scope, file.end - file.start])).toEqual([
      ["anti-patterns", "local", 75],
      ["patterns", "local", 96],
      ["heuristics", "local", 95],
      // The example store's learnings are copies of the bank's: each kept in the place of its first copy.
      ["anti-patterns", "global", 0],
      ["patterns", "global", 0],
      ["heuristics", "global", 0],
    ]);
    expect(decodeRankingCache(encodeRankingCache("f", parsed.ranking!), "f")!.growth).toBeUndefined();
  });

  it("after a learning is appended, leave the entries before it unread and give what parsing gives", async () => {
    const { heuristics, read } = realSources();
    await read();
    appendFileSync(heuristics, LEARNING);
    const { result: grown, parses } = await parsesIn(read);
    expect(parses).toBeLessThan(30);
    expect(plain(grown.local)).toEqual(plain((await read(false)).local));
    expect(grown.local.at(-1)!.name).toBe("Check the retry budget first");
    // Kept again, all of it lazily: the next read parses no entry either.
    const { result: again, parses: parsesAgain } = await parsesIn(read);
    expect(parsesAgain).toBeLessThan(20);
    expect(plain(again.local)).toEqual(plain(grown.local));
  });

  it("are not trusted when a line, a column or their packed terms were damaged: the file is read anew and kept again", async () => {
    const { cache, heuristics, read } = realSources();
    const parsed = await read(false);
    await read();
    const path = entryFileCachePath(cache, heuristics);
    const good = readFileSync(path);
    const kept = readKeptCacheFile(path);
    const meta = kept.meta as typeof kept.meta & { columns: Record<string, unknown> & { observationCount: number[]; category: string; sourceItems: number[] } };
    // Columns that do not fit the entries, in a cache written so (its checksum matching), or
    // with `resign: false` damaged on disk (its checksum as kept).
    const withColumns = (columns: Record<string, unknown>, options: { resign?: boolean } = {}) => keptCacheFileBytes({ ...kept, meta: { ...meta, columns: { ...meta.columns, ...columns } } }, options);
    const entry = JSON.parse(kept.lines[0]!) as { name: string };
    expect(keptCacheFileBytes(kept).equals(good)).toBe(true);
    const damaged = [
      // A line changed, the file's checksum not: as a disk or a hand would damage it.
      keptCacheFileBytes({ ...kept, lines: [JSON.stringify({ ...entry, name: "changed" }), ...kept.lines.slice(1)] }, { resign: false }),
      // A count, a category and a date changed on disk, each still one a column may hold.
      withColumns({ observationCount: [meta.columns.observationCount[0]! + 1, ...meta.columns.observationCount.slice(1)] }, { resign: false }),
      withColumns({ category: `${meta.columns.category[0] === "a" ? "p" : "a"}${meta.columns.category.slice(1)}` }, { resign: false }),
      withColumns({ lastObserved: ["2026-01-01", ...(meta.columns.lastObserved as unknown[]).slice(1)] }, { resign: false }),
      withColumns({ observationCount: meta.columns.observationCount.slice(1) }),
      withColumns({ category: `x${meta.columns.category.slice(1)}` }),
      withColumns({ sourceItems: [0.5, ...meta.columns.sourceItems.slice(1)] }),
      withColumns({ tags: "universal" }),
      withColumns({ tags: ["universal", ...(meta.columns.tags as unknown[]).slice(1)] }),
      withColumns({ lastObserved: [7, ...(meta.columns.lastObserved as unknown[]).slice(1)] }),
      // Where the lines end: one moved within a line, two swapped, one not a number, one missing.
      withColumns({ lineEnds: [(meta.columns.lineEnds as number[])[0]! - 1, ...(meta.columns.lineEnds as number[]).slice(1)] }),
      withColumns({ lineEnds: [(meta.columns.lineEnds as number[])[1]!, (meta.columns.lineEnds as number[])[0]!, ...(meta.columns.lineEnds as number[]).slice(2)] }),
      withColumns({ lineEnds: [String((meta.columns.lineEnds as number[])[0]), ...(meta.columns.lineEnds as number[]).slice(1)] }),
      withColumns({ lineEnds: (meta.columns.lineEnds as number[]).slice(1) }),
      keptCacheFileBytes({ ...kept, lines: kept.lines.slice(1) }),
      // A word of the packed terms changed (still a position of the vocabulary), the file's checksum not.
      keptCacheFileBytes({ ...kept, terms: [[[...kept.terms[0]![0]!, 0], kept.terms[0]![1]!, kept.terms[0]![2]!], ...kept.terms.slice(1)] }, { resign: false }),
    ];
    for (const bytes of damaged) {
      writeFileSync(path, bytes);
      const again = await read();
      expect(plain(again.local)).toEqual(plain(parsed.local));
      expect(readFileSync(path).equals(good)).toBe(true);
    }
  });
});
