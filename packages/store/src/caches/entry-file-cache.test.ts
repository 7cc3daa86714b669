import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildRelevanceIndex, injectionCandidates, numberedFieldTerms } from "@iflow-memory/ranker";
import { describe, expect, it } from "vitest";
import { prepareSessionInjection } from "../prepare-session-injection.js";
import { readKnowledgeBank } from "../read-knowledge-bank.js";
import { readMemorySources } from "../read-memory-sources.js";
import { planSessionStart } from "../relevance/plan-session-injection.js";
import { keptCacheFileBytes, readKeptCacheFile, writeKeptCacheFile } from "../__fixtures__/kept-cache-file.js";
import { entryFileCachePath, type EntryFileCache } from "./entry-file-cache.js";
import { encodeRankingCache } from "./ranking-cache-file.js";
import { tempDir } from "../__fixtures__/temp-dir.js";

const CORPORA = resolve(__dirname, "../../../../test/fixtures/corpora");

// A project with the real 2026-04 bank and a global store with the example store's entries.
function realSources(): { projectRoot: string; globalStoreDir: string; cache: EntryFileCache } {
  const root = tempDir("iflow-file-cache-");
  const projectRoot = join(root, "project");
  const globalStoreDir = join(root, "store");
  cpSync(join(CORPORA, "iflow-kb-2026-04/docs/knowledge-bank"), join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  cpSync(join(CORPORA, "global-store-example"), globalStoreDir, { recursive: true });
  // Files written just now have not settled; a clock a minute ahead says they have. Every file is
  // kept as a small one (read whole: `largeFileBytes` above the bank's sizes), which this suite
  // covers; large ones, read lazily, have their own (entry-file-cache.lazy.test.ts).
  return { projectRoot, globalStoreDir, cache: { dir: join(globalStoreDir, ".cache"), salt: "test 1", now: () => Date.now() + 60_000, largeFileBytes: 1024 * 1024 } };
}

const cacheFiles = (cache: EntryFileCache): string[] => {
  try {
    return readdirSync(join(cache.dir, "files")).sort();
  } catch {
    return [];
  }
};
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

// A file's cache in parts: the header, the warnings, vocabulary and each entry's terms (as lists:
// the file keeps them packed), and the entries, one per line.
interface KeptLines {
  header: string;
  checksum: number;
  meta: ReturnType<typeof readKeptCacheFile>["meta"] & { terms: number[][][] };
  entries: Array<{ name: string; description: string }>;
}
const readKept = (path: string): KeptLines => {
  const { header, checksum, meta, terms, lines } = readKeptCacheFile(path);
  return { header, checksum, meta: { ...meta, terms }, entries: lines.map((line) => JSON.parse(line) as KeptLines["entries"][number]) };
};
// The cache file as the build before the current format wrote it (its format one lower).
const olderFormat = (text: string): string => {
  const older = text.replace(/"format":(\d+)/, (_, format: string) => `"format":${Number(format) - 1}`);
  expect(older).not.toBe(text);
  return older;
};
// The bytes of a cache file with these parts (each entry's line written by `line`), its checksum
// that of these bytes (as the build would write them), or with `resign: false` the one kept (as a
// disk would damage them).
const keptText = (kept: KeptLines, line: (entry: KeptLines["entries"][number]) => string = JSON.stringify, options: { resign?: boolean } = {}): Buffer => {
  const { terms, ...meta } = kept.meta;
  return keptCacheFileBytes({ header: kept.header, checksum: kept.checksum, meta, terms, lines: kept.entries.map(line) }, options);
};

describe("the per-file entry cache", () => {
  it("gives what parsing the files gives, written on the first read and read on the next", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const parsed = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
    const first = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(cacheFiles(cache)).toHaveLength(6);
    const second = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    for (const read of [first, second]) {
      expect(plain(read.local)).toEqual(plain(parsed.local));
      expect(plain(read.global)).toEqual(plain(parsed.global));
      expect(read.warnings).toEqual(parsed.warnings);
    }
    expect(parsed.local.length).toBeGreaterThan(200);
  });

  it("with inThread, reads the files, their stamps and what is kept in the calling thread: the same read, done before the event loop turns once", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    appendFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Read it in the thread\nA start after an edit reads the changed file and the kept ones.\n");
    // Not settled (nothing kept, so nothing written): a read after an edit, as at a session start.
    const read = async (inThread: boolean) => {
      let turned = false;
      setImmediate(() => (turned = true));
      const sources = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, now: Date.now, inThread }, terms: true });
      return { turned, sources };
    };
    const inThread = await read(true);
    const onThreads = await read(false);
    expect([inThread.turned, onThreads.turned]).toEqual([false, true]);
    expect(plain(inThread.sources.local)).toEqual(plain(onThreads.sources.local));
    expect(plain(inThread.sources.global)).toEqual(plain(onThreads.sources.global));
    expect(inThread.sources.warnings).toEqual(onThreads.sources.warnings);
    expect(inThread.sources.terms!.size).toBe(onThreads.sources.terms!.size);
    expect(inThread.sources.local.map((entry) => entry.name)).toContain("Read it in the thread");
  });

  it("reads a second time from the cache, not from the file", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    // The kept entries of patterns.md, marked: a read that parsed the file would not have the mark.
    const path = join(projectRoot, "docs/knowledge-bank/patterns.md");
    const kept = entryFileCachePath(cache, path);
    const marked = readKept(kept);
    marked.entries[0]!.name = "marked in the cache";
    writeFileSync(kept, keptText(marked));
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(read.local.some((entry) => entry.name === "marked in the cache")).toBe(true);
  });

  it("parses a file again once it changed, and keeps taking the others from the cache", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    appendFileSync(heuristics, "\n### Heuristic: Check the cache's stamp\nA file edited since it was kept is parsed again.\n");
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const parsed = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
    expect(read.local.map((entry) => entry.name)).toContain("Check the cache's stamp");
    expect(plain(read.local)).toEqual(plain(parsed.local));
  });

  it("after an edit, takes the terms of the entries it left unchanged from the file's earlier cache, and redacts and tokenizes the rest: the same entries, warnings and index", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    // The earlier cache's terms of every entry, marked: an entry whose terms come from it has the mark.
    const kept = entryFileCachePath(cache, heuristics);
    const earlier = readKept(kept);
    const mark = earlier.meta.vocabulary.length;
    writeFileSync(kept, keptText({ ...earlier, meta: { ...earlier.meta, vocabulary: [...earlier.meta.vocabulary, "marked"], terms: earlier.meta.terms.map(([name, ...rest]) => [[mark, ...name!], ...rest]) } }));
    const edited = earlier.entries[3]!;
    const text = readFileSync(heuristics, "utf8");
    const token = `ghp_${"a1B2c3D4e5".repeat(4)}`;
    writeFileSync(heuristics, `${text.replace(edited.description, `${edited.description} Edited.`)}\n### Heuristic: Rotate the deploy token\nThe token ${token} was rotated.\n`);
    // Not settled: read, not kept (as at a session start right after the edit).
    const unsettled = { ...cache, now: Date.now };
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: unsettled, terms: true });
    const parsed = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
    expect(plain(read.local)).toEqual(plain(parsed.local));
    expect(read.warnings).toEqual(parsed.warnings);
    expect(read.warnings.some((warning) => warning.message.includes('"Rotate the deploy token" contains a secret'))).toBe(true);
    const terms = (name: string) => {
      const numbered = read.terms!.get(read.local.find((entry) => entry.name === name)!);
      return numbered === undefined ? undefined : numberedFieldTerms(numbered)![0];
    };
    expect(terms(earlier.entries[0]!.name)?.[0]).toBe("marked");
    expect(terms(edited.name)).toBeUndefined();
    expect(terms("Rotate the deploy token")).toBeUndefined();
    expect(read.local.filter((entry) => entry.category === "heuristics" && read.terms!.has(entry))).toHaveLength(earlier.entries.length - 1);
    // Kept once settled: every term worked out anew or taken over, none marked but those taken over.
    const settled = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache, terms: true });
    const candidates = injectionCandidates({ local: settled.local, global: settled.global, project: "project" });
    const strip = (terms: readonly string[]) => terms.filter((term) => term !== "marked");
    const unmarked = new Map(
      [...settled.terms!].map(([entry, numbered]) => {
        const kept = numberedFieldTerms(numbered)!;
        return [entry, [strip(kept[0]), strip(kept[1]), strip(kept[2])] as const];
      }),
    );
    expect(buildRelevanceIndex(candidates, undefined, unmarked)).toEqual(buildRelevanceIndex(candidates));
    expect(readFileSync(kept, "utf8")).not.toContain(token);
  });

  it("after an edit, redacts again an entry whose earlier version held a secret, and one that holds text redaction writes", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const patterns = join(projectRoot, "docs/knowledge-bank/patterns.md");
    const token = `ghp_${"a1B2c3D4e5".repeat(4)}`;
    appendFileSync(patterns, `\n### Pattern: Rotate the deploy token\nThe token ${token} was rotated.\n`);
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(readFileSync(entryFileCachePath(cache, patterns), "utf8")).not.toContain(token);
    // The same entry, still holding its secret, and one written as its redacted text.
    appendFileSync(patterns, "\n### Pattern: Rotate the deploy token again\nThe token [REDACTED] was rotated.\n");
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, now: Date.now }, terms: true });
    const parsed = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
    expect(plain(read.local)).toEqual(plain(parsed.local));
    expect(read.warnings).toEqual(parsed.warnings);
    expect(JSON.stringify(read.local)).not.toContain(token);
    expect(read.warnings.filter((warning) => warning.message.includes('"Rotate the deploy token" contains a secret'))).toHaveLength(1);
    expect(read.terms!.has(read.local.find((entry) => entry.name === "Rotate the deploy token")!)).toBe(false);
  });

  it("after an edit, keeps the file as a read without an earlier cache would (its entries' lines byte for byte, the same terms), and relevance's ranking cache byte for byte", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    const text = readFileSync(heuristics, "utf8");
    const edited = readKept(entryFileCachePath(cache, heuristics)).entries[5]!;
    writeFileSync(heuristics, `${text.replace(edited.description, `${edited.description} Edited.`)}\n### Heuristic: Keep the cache's lines\nAn entry an edit left alone is written as it was kept.\n`);
    const afterEdit = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    const fresh = { ...cache, dir: join(globalStoreDir, ".cache-fresh") };
    const withoutEarlier = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: fresh });
    // The same lines of entries, byte for byte, and the same terms (numbered in the earlier
    // version's vocabulary, grown, instead of one made anew).
    const file = (kept: EntryFileCache) => readKeptCacheFile(entryFileCachePath(kept, heuristics));
    expect(file(cache).lines).toEqual(file(fresh).lines);
    expect(file(cache).header).toBe(file(fresh).header);
    const termsOf = (kept: EntryFileCache) => {
      const { meta } = readKept(entryFileCachePath(kept, heuristics));
      return { ...meta, vocabulary: undefined, terms: meta.terms.map((numbers) => numberedFieldTerms({ vocabulary: meta.vocabulary, numbers })) };
    };
    expect(termsOf(cache)).toEqual(termsOf(fresh));
    expect(readKept(entryFileCachePath(cache, heuristics)).meta.vocabulary).toEqual(expect.arrayContaining(readKept(entryFileCachePath(fresh, heuristics)).meta.vocabulary));
    expect(Buffer.compare(encodeRankingCache("f", afterEdit.ranking!), encodeRankingCache("f", withoutEarlier.ranking!))).toBe(0);
    expect(plain(afterEdit)).toEqual(plain(withoutEarlier));
  });

  it("writes an entry an edit left unchanged and in its place as the line it was kept on, and any other anew", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    const path = entryFileCachePath(cache, heuristics);
    // Each kept line marked by a space JSON ignores: a line written again as kept keeps it.
    const kept = readKept(path);
    const spaced = (line: string) => line.replace(/^\{"name"/, '{ "name"');
    writeFileSync(path, keptText(kept, (entry) => spaced(JSON.stringify(entry))));
    const text = readFileSync(heuristics, "utf8");
    const edited = kept.entries[5]!;
    writeFileSync(heuristics, `${text.replace(edited.description, `${edited.description} Edited.`)}\n### Heuristic: Keep the cache's lines\nAn entry an edit left alone is written as it was kept.\n`);
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(plain(read.local)).toEqual(plain((await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true })).local));
    const { lines } = readKeptCacheFile(path);
    expect(lines).toHaveLength(kept.entries.length + 1);
    lines.forEach((line, at) => expect(line.startsWith('{ "name"'), `line ${at}`).toBe(at !== 5 && at !== kept.entries.length));
    // Every entry after one put before it has moved: none is written as kept.
    writeFileSync(heuristics, `### Heuristic: First of all\nA learning put before the others.\n\n${readFileSync(heuristics, "utf8")}`);
    const moved = readKeptCacheFile(path);
    writeKeptCacheFile(path, { ...moved, lines: moved.lines.map(spaced) });
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(readKeptCacheFile(path).lines.join("\n")).not.toContain('{ "name"');
  });

  it("grows a file's vocabulary as it is edited, and numbers its terms anew once most of it is gone", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const patterns = join(projectRoot, "docs/knowledge-bank/patterns.md");
    const path = entryFileCachePath(cache, patterns);
    // 1,500 entries of a word each no other holds.
    const word = (at: number) => `word${String(at).replace(/[0-9]/g, (digit) => "abcdefghij"[Number(digit)]!)}`;
    writeFileSync(patterns, Array.from({ length: 1500 }, (_, at) => `### Pattern: Lesson ${word(at)}\nKeep ${word(at)} in mind.\n`).join("\n"));
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const size = readKept(path).meta.vocabulary.length;
    expect(size).toBeGreaterThan(1300);
    // A few entries gone: their terms stay in the vocabulary, the others keep their numbers.
    writeFileSync(patterns, Array.from({ length: 1400 }, (_, at) => `### Pattern: Lesson ${word(at)}\nKeep ${word(at)} in mind.\n`).join("\n"));
    const fewer = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache, terms: true });
    expect(readKept(path).meta.vocabulary).toHaveLength(size);
    // Most gone: numbered anew (the one left taken from the cache), the same index.
    writeFileSync(patterns, `### Pattern: Lesson ${word(0)}\nKeep ${word(0)} in mind.\n`);
    const one = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache, terms: true });
    expect(readKept(path).meta.vocabulary.length).toBeLessThan(20);
    for (const read of [fewer, one]) {
      const candidates = injectionCandidates({ local: read.local, global: read.global, project: "project" });
      expect(buildRelevanceIndex(candidates, undefined, read.terms)).toEqual(buildRelevanceIndex(candidates));
    }
    const again = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache, terms: true });
    const candidates = injectionCandidates({ local: again.local, global: again.global, project: "project" });
    expect(candidates.filter((entry) => again.terms!.has(entry)).length).toBe(candidates.length - candidates.filter((entry) => !again.local.includes(entry) && !again.global.includes(entry)).length);
    expect(buildRelevanceIndex(candidates, undefined, again.terms)).toEqual(buildRelevanceIndex(candidates));
  });

  it("ignores a damaged cache file, another version's, another machine's and another way of reading's, and writes it anew", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const parsed = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const path = entryFileCachePath(cache, join(projectRoot, "docs/knowledge-bank/anti-patterns.md"));
    const good = readFileSync(path);
    const kept = readKept(path);
    const first = good.indexOf(10);
    const second = good.indexOf(10, first + 1);
    const [header, meta] = [good.toString("utf8", 0, first), good.toString("utf8", first + 1, second)];
    const text = (value: string) => Buffer.from(value);
    // The file with one text of its first two lines replaced.
    const replaced = (from: string, to: string) => {
      const at = good.indexOf(from);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(at).toBeLessThan(second);
      return Buffer.concat([good.subarray(0, at), text(to), good.subarray(at + Buffer.byteLength(from))]);
    };
    // The packed terms' bytes with one 32-bit number (a field's start) changed.
    const start = (at: number, value: number) => {
      const bytes = Buffer.from(good);
      bytes.writeUInt32LE(value, second + 1 + at * 4);
      return bytes;
    };
    const terms = kept.meta.terms;
    // One byte of the file changed in place (its checksum as kept).
    const flipped = (from: string, to: string) => {
      const at = good.lastIndexOf(from);
      expect([at > first, Buffer.byteLength(from) === Buffer.byteLength(to)]).toEqual([true, true]);
      return Buffer.concat([good.subarray(0, at), text(to), good.subarray(at + Buffer.byteLength(from))]);
    };
    const term = kept.meta.vocabulary.find((word) => /^[a-y]{6,}$/.test(word))!;
    const described = kept.entries[3]!.description.slice(0, 12);
    const damaged = [
      good.subarray(0, good.length >> 1),
      good.subarray(0, -1),
      text("not json\n{}\n"),
      text(`${header}\n`),
      text(`${header}\n${meta}\n`),
      text(`${header}\n{"warnings":[],"redactions":[],"vocabulary":[],"terms":[1]}\n{}\n`),
      text(`${header}\n{"warnings":[],"redactions":[],"terms":[[[],[],[]]]}\n{}\n`),
      text(`${header}\n{"warnings":[],"redactions":[],"vocabulary":[1],"count":1,"termBytes":16,"wideTerms":false}\n${"\0".repeat(16)}{}\n`),
      keptText({ ...kept, entries: kept.entries.slice(1) }),
      keptText({ ...kept, meta: { ...kept.meta, terms: terms.slice(1) } }),
      // Terms that are not positions of the vocabulary, in 16 bits and 32 (on disk: the build writes none).
      keptText({ ...kept, meta: { ...kept.meta, terms: [[[kept.meta.vocabulary.length], [], []], ...terms.slice(1)] } }, JSON.stringify, { resign: false }),
      keptText({ ...kept, meta: { ...kept.meta, terms: [[[999_999], [], []], ...terms.slice(1)] } }, JSON.stringify, { resign: false }),
      // Damaged on disk into something that still reads as a cache: a term of the vocabulary, a
      // letter of an entry's text, a number of its terms, the last newline.
      flipped(`"${term}"`, `"${term.slice(0, -1)}${term.endsWith("z") ? "y" : "z"}"`),
      flipped(described, `${described.slice(0, -1)}${described.endsWith("Q") ? "R" : "Q"}`),
      ((bytes, word) => (bytes.writeUInt16LE(bytes.readUInt16LE(word) ^ 1, word), bytes))(Buffer.from(good), second + 1 + (terms.length * 3 + 1) * 4 + 2),
      Buffer.concat([good.subarray(0, -1), text(" ")]),
      // A field that ends before it starts, one past the words, packed bytes of another length.
      start(1, 0xffff_ffff),
      start(terms.length * 3, 0xffff),
      start(0, 1),
      replaced(`"termBytes":${kept.meta.termBytes}`, `"termBytes":${kept.meta.termBytes - 2}`),
      replaced(`"termBytes":${kept.meta.termBytes}`, `"termBytes":${good.length}`),
      replaced('"wideTerms":false', '"wideTerms":true'),
      replaced(`"count":${terms.length}`, `"count":${terms.length + 1}`),
      Buffer.concat([good, text('{"name":"one more"}\n')]),
      Buffer.concat([good, text("1\n")]),
      // As many entries, one of them damaged into something else.
      keptText({ ...kept, entries: [{} as KeptLines["entries"][number], ...kept.entries.slice(1)] }),
      keptText({ ...kept, entries: [{ ...kept.entries[0]!, description: 7 as unknown as string }, ...kept.entries.slice(1)] }),
      keptText({ ...kept, entries: [{ ...kept.entries[0]!, metadata: { Source: 7 } } as KeptLines["entries"][number], ...kept.entries.slice(1)] }),
      keptText({ ...kept, entries: [{ ...kept.entries[0]!, tags: "universal" } as KeptLines["entries"][number], ...kept.entries.slice(1)] }),
      replaced('"salt":"test 1"', '"salt":"test 0"'),
      Buffer.concat([text(olderFormat(header)), good.subarray(first)]),
      // Written on a machine of the other byte order.
      replaced('"order":"le"', '"order":"be"'),
      replaced("local anti-patterns the knowledge bank", "local anti-patterns raw"),
    ];
    expect(keptText(kept).equals(good)).toBe(true);
    for (const bytes of damaged) {
      writeFileSync(path, bytes);
      const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
      expect(plain(read.local)).toEqual(plain(parsed.local));
      expect(readFileSync(path).equals(good)).toBe(true);
    }
  });

  it("after an edit, reads the file anew when its earlier cache holds an entry damaged into something else (instead of failing every read)", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    const path = entryFileCachePath(cache, heuristics);
    const kept = readKept(path);
    writeFileSync(path, keptText({ ...kept, entries: [{} as KeptLines["entries"][number], ...kept.entries.slice(1)] }));
    appendFileSync(heuristics, "\n### Heuristic: Bound Every Retry Loop\nA retry loop without a budget turns an outage into a storm.\n");
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(plain(read.local)).toEqual(plain((await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true })).local));
  });

  it("keeps one cache per build (its salt): two builds taking turns on a store each read their own, and neither writes over the other's", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const other = { ...cache, salt: "test 2" };
    const read = (as: EntryFileCache) => readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: as });
    const first = await read(cache);
    const mine = cacheFiles(cache);
    const written = () => Object.fromEntries(mine.map((name) => [name, readFileSync(join(cache.dir, "files", name), "latin1")]));
    const before = written();
    const theirs = await read(other);
    const again = await read(cache);
    // Six memory files, each kept once per build; this build's caches as it wrote them.
    expect([mine.length, cacheFiles(cache).length, written()]).toEqual([6, 12, before]);
    expect(entryFileCachePath(other, join(projectRoot, "docs/knowledge-bank/heuristics.md"))).not.toBe(entryFileCachePath(cache, join(projectRoot, "docs/knowledge-bank/heuristics.md")));
    expect([plain(theirs.local), plain(again.local), plain(again.global)]).toEqual([plain(first.local), plain(first.local), plain(first.global)]);
  });

  it("keeps nothing of a file that has not settled", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, now: Date.now } });
    expect(cacheFiles(cache)).toEqual([]);
  });

  it("read-only (readOnly), takes what is kept and keeps nothing: an edited file stays kept as it was", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    const kept = readFileSync(entryFileCachePath(cache, heuristics), "utf8");
    appendFileSync(heuristics, "\n### Heuristic: Leave keeping to the refresh\nA session start reads; a background process keeps.\n");
    const before = cacheFiles(cache).map((name) => readFileSync(join(cache.dir, "files", name), "utf8"));
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, readOnly: true } });
    expect(plain(read.local)).toEqual(plain((await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true })).local));
    expect(read.local.map((entry) => entry.name)).toContain("Leave keeping to the refresh");
    expect(cacheFiles(cache).map((name) => readFileSync(join(cache.dir, "files", name), "utf8"))).toEqual(before);
    expect(readFileSync(entryFileCachePath(cache, heuristics), "utf8")).toBe(kept);
    // Read again by a reader that keeps: the edited file is kept anew.
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(readFileSync(entryFileCachePath(cache, heuristics), "utf8")).not.toBe(kept);
  });

  it("read-only, names to `unkept` each file it read anew that it would have kept: settled, not taken from the cache", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const named: string[] = [];
    const unkept = (path: string) => named.push(path);
    const all = ["anti-patterns", "patterns", "heuristics"].flatMap((category) => [join(projectRoot, "docs/knowledge-bank", `${category}.md`), join(globalStoreDir, `${category}.md`)]);
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, readOnly: true, unkept } });
    expect([named.sort(), cacheFiles(cache)]).toEqual([all.sort(), []]);
    // Kept by a reader that keeps: none is named; an edited one is, unless it has not settled.
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    named.length = 0;
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, readOnly: true, unkept } });
    const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    appendFileSync(heuristics, "\n### Heuristic: Name what was left unkept\nA reader that keeps nothing says what another should keep.\n");
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, readOnly: true, unkept, now: Date.now } });
    expect(named).toEqual([]);
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: { ...cache, readOnly: true, unkept } });
    expect(named).toEqual([heuristics]);
  });

  it("never keeps a secret, nor raw entries", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    const token = `ghp_${"a1B2c3D4e5".repeat(4)}`;
    appendFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), `\n### Pattern: Rotate the deploy token\nThe token ${token} was rotated.\n`);
    await readKnowledgeBank(projectRoot, { raw: true, cache });
    expect(cacheFiles(cache)).toEqual([]);
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(read.warnings.some((warning) => warning.message.includes("contains a secret"))).toBe(true);
    expect(cacheFiles(cache)).toHaveLength(6);
    for (const name of cacheFiles(cache)) expect(readFileSync(join(cache.dir, "files", name), "utf8")).not.toContain(token);
    const again = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    expect(again.warnings).toEqual(read.warnings);
  });

  it("gives relevance's index the terms it would have tokenized: the same index", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache });
    const read = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache, terms: true });
    expect(read.terms?.size).toBe(read.local.length + read.global.length);
    expect((await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache })).terms).toBeUndefined();
    const candidates = injectionCandidates({ local: read.local, global: read.global, project: "project" });
    // The candidates are the entries read (but for the few merged or cut): their terms are kept ones.
    expect(candidates.filter((entry) => read.terms!.has(entry)).length).toBeGreaterThan(candidates.length * 0.9);
    expect(buildRelevanceIndex(candidates, undefined, read.terms)).toEqual(buildRelevanceIndex(candidates));
  });

  it("leaves a session's injection as it was", async () => {
    const { projectRoot, globalStoreDir, cache } = realSources();
    mkdirSync(join(projectRoot, ".claude"));
    const plainInjection = await prepareSessionInjection({ projectRoot, globalStoreDir });
    await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    const cached = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: cache });
    expect(plain(cached)).toEqual(plain(plainInjection));
    // After an edit, read through the file's earlier cache (unchanged entries' terms and hashes
    // taken from it): the same injection as from the files alone, and the same session plans.
    appendFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "\n### Pattern: Retry Embedding Calls With a Budget\nEmbedding calls that time out are retried three times, with backoff.\n- Observation count: 7\n");
    const edited = await prepareSessionInjection({ projectRoot, globalStoreDir, fileCache: { ...cache, now: Date.now } });
    const editedPlain = await prepareSessionInjection({ projectRoot, globalStoreDir });
    expect(plain(edited)).toEqual(plain(editedPlain));
    const query = { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"], text: "retry the embedding call when it times out" };
    expect(planSessionStart(edited, query).block).toBe(planSessionStart(editedPlain, query).block);
    expect(planSessionStart(edited, query).block).toContain("Retry Embedding Calls With a Budget");
  });
});
