import { join } from "node:path";
import { buildRelevanceIndex, entryOrders, indexTerms, planInjection, rankEntries, SEARCH_FLOOR, termPostings } from "@iflow-memory/ranker";
import { CORPORA_DIR } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { prepareSessionInjection } from "../prepare-session-injection.js";
import { decodeRankingCache, encodeRankingCache, type RankingData } from "./ranking-cache-file.js";

const sources = { projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") };
// A cache file's parts: its header, the entries' lines (and an empty one after the last's newline), the postings (8 bytes each, and a newline), the columns that end it.
function parts(bytes: Uint8Array): { header: Record<string, unknown>; lines: string[]; postings: Buffer; columns: Buffer } {
  const file = Buffer.from(bytes);
  const newline = file.indexOf(10);
  const header = JSON.parse(file.toString("utf8", 0, newline)) as Record<string, unknown>;
  const columnsStart = file.length - (header.columns as number);
  const postingsStart = columnsStart - (header.postingStarts as number[]).at(-1)! * 8 - 1;
  return { header, lines: file.toString("utf8", newline + 1, postingsStart).split("\n"), postings: file.subarray(postingsStart, columnsStart), columns: file.subarray(columnsStart) };
}
const joined = ({ header, lines, postings, columns }: ReturnType<typeof parts>) => Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n${lines.join("\n")}`), postings, columns]);

describe("encodeRankingCache / decodeRankingCache", () => {
  it("gives back every entry of the real bank as it was, and the same index", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const decoded = decodeRankingCache(encodeRankingCache("f", ranking!), "f")!;
    expect(JSON.parse(JSON.stringify(decoded.candidates))).toEqual(JSON.parse(JSON.stringify(ranking!.candidates)));
    // The index, read a term at a time: every term with its postings, and no other.
    expect(new Map(indexTerms(decoded.index))).toEqual(new Map(Object.entries(buildRelevanceIndex(ranking!.candidates).postings)));
    expect([decoded.index.documents, indexTerms(decoded.index).next().done]).toEqual([ranking!.index.documents, false]);
    expect(["retri", "constructor", "__proto__", "zzz"].map((term) => termPostings(decoded.index, term))).toEqual(["retri", "constructor", "__proto__", "zzz"].map((term) => termPostings(ranking!.index, term)));
    // Field by field, as the ranker and the formatter read them.
    expect(decoded.candidates.map((entry) => [entry.name, entry.headerLine, entry.category, entry.description, entry.metadataText, entry.observationCount, entry.confidence, entry.lastObserved, entry.filePosition, entry.contentHash, entry.scope])).toEqual(
      ranking!.candidates.map((entry) => [entry.name, entry.headerLine, entry.category, entry.description, entry.metadataText, entry.observationCount, entry.confidence, entry.lastObserved, entry.filePosition, entry.contentHash, entry.scope]),
    );
  });

  it("plans the same injection from the decoded ranking as from the files", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const decoded = decodeRankingCache(encodeRankingCache("f", ranking!), "f")!;
    const request = { limit: 20, maxChars: 9000, query: { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"], text: "FTS5 keyword search" } };
    expect(planInjection({ ...request, candidates: decoded.candidates, ranking: { index: decoded.index } }).block).toBe(planInjection({ ...request, candidates: ranking!.candidates, ranking: { index: ranking!.index } }).block);
  });

  it("gives each entry's ranked fields by its position (facts) as the entry gives them, and a ranking read through them the same as through the entries", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    // A column of hashes, and hashes of different widths kept in the header.
    const widths = ranking!.candidates.map((entry, at) => (at === 1 ? { ...entry, contentHash: "€uro-hash" } : entry));
    for (const written of [ranking!, { ...ranking!, candidates: widths }]) {
      const decoded = decodeRankingCache(encodeRankingCache("f", written), "f")!;
      const facts = decoded.facts!;
      expect(decoded.candidates.map((_, at) => [facts.observationCount(at), facts.confidence(at), facts.contentHash(at)])).toEqual(written.candidates.map((entry) => [entry.observationCount, entry.confidence, entry.contentHash]));
    }
    const decoded = decodeRankingCache(encodeRankingCache("f", ranking!), "f")!;
    const query = { text: "retry embedding calls with a timeout" };
    const options = { index: decoded.index, orders: decoded.orders, floor: SEARCH_FLOOR };
    expect(rankEntries(decoded.candidates, query, { ...options, facts: decoded.facts! })).toEqual(rankEntries(decoded.candidates, query, options));
  });

  it("gives back the orders and shared hash prefixes worked out with the index", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const decoded = decodeRankingCache(encodeRankingCache("f", { ...ranking!, sharedHashPrefixes: ["0033af00"] }), "f")!;
    expect([decoded.orders, decoded.sharedHashPrefixes]).toEqual([ranking!.orders, ["0033af00"]]);
    expect(decoded.orders.order).toBeInstanceOf(Int32Array);
    // Worked out again from the decoded entries (whose dates and positions are read from their lines): the same.
    expect(entryOrders(decoded.candidates)).toEqual(ranking!.orders);
  });

  it("gives a cache of more than a thousand entries as a list that makes each when first read, past 10,000 with its names read one by one, and today's order place by place", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    // Five copies of the real bank's (1,325 entries), and forty (10,600).
    for (const copies of [5, 40]) expectLazyCache(ranking!, copies);
  });

  it("parses an entry's own line only when its text is asked for", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const file = parts(encodeRankingCache("f", ranking!));
    // The second entry's line broken (same length, so the offsets still hold): only reading its text fails.
    file.lines[1] = "x".repeat(file.lines[1]!.length);
    const decoded = decodeRankingCache(joined(file), "f")!;
    expect([decoded.candidates[0]!.name, decoded.candidates[1]!.contentHash]).toEqual([ranking!.candidates[0]!.name, ranking!.candidates[1]!.contentHash]);
    expect(() => decoded.candidates[1]!.description).toThrow(SyntaxError);
  });

  it("reads an entry's name without its line, whatever the name holds", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const names = [
      'a "quoted" name \\ with a backslash, and one at its end \\',
      "€".repeat(160), // three-byte characters
      `${"long ".repeat(150)}name`,
      "\u0000 control\ncharacters\u001f and \ud800 a lone surrogate",
      "",
    ];
    const candidates = ranking!.candidates.map((entry, at) => (at < names.length ? { ...entry, name: names[at]! } : entry));
    const file = encodeRankingCache("f", { ...ranking!, candidates });
    const intact = decodeRankingCache(file, "f")!;
    expect(intact.candidates.map((entry) => entry.name)).toEqual(candidates.map((entry) => entry.name));
    // Every entry's line broken (same length: the offsets hold): names are still read, the rest is not.
    const whole = parts(file);
    const brokenLines = whole.lines.map((line, at) => (at < whole.lines.length - 1 ? "x".repeat(Buffer.byteLength(line)) : line));
    const broken = decodeRankingCache(joined({ ...whole, lines: brokenLines }), "f")!.candidates;
    expect(broken.map((entry) => entry.name)).toEqual(candidates.map((entry) => entry.name));
    expect(() => broken[0]!.description).toThrow(SyntaxError);
  });

  it("is no cache under another fingerprint, torn, or not a cache at all", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const file = encodeRankingCache("f", ranking!);
    expect(decodeRankingCache(file, "g")).toBeNull();
    expect(decodeRankingCache(file.subarray(0, file.length - 100), "f")).toBeNull();
    expect(decodeRankingCache(Buffer.from("{}\n"), "f")).toBeNull();
    expect(decodeRankingCache(Buffer.from("null\n"), "f")).toBeNull();
    expect(decodeRankingCache(Buffer.from("not json"), "f")).toBeNull();
    // Columns that do not hold every entry, or not as the header says: from another build, or damaged.
    const whole = parts(file);
    expect(decodeRankingCache(joined(whole), "f")).not.toBeNull();
    const count = whole.header.count as number;
    for (const header of [
      { ...whole.header, count: count - 1 },
      { ...whole.header, count: count + 1 },
      { ...whole.header, columns: (whole.header.columns as number) - 1 },
      { ...whole.header, columns: (whole.header.columns as number) + 1 },
      { ...whole.header, hashWidth: 0 },
      { ...whole.header, hashWidth: 8 },
      { ...whole.header, littleEndian: !whole.header.littleEndian },
      { ...whole.header, postingStarts: (whole.header.postingStarts as number[]).slice(1) },
      { ...whole.header, postingStarts: [...(whole.header.postingStarts as number[]).slice(0, -1), (whole.header.postingStarts as number[]).at(-1)! + 1] },
    ]) {
      expect(decodeRankingCache(joined({ ...whole, header }), "f")).toBeNull();
    }
    expect(decodeRankingCache(joined({ ...whole, columns: whole.columns.subarray(1) }), "f")).toBeNull();
    expect(decodeRankingCache(joined({ ...whole, lines: [...whole.lines.slice(0, -2), `${whole.lines.at(-2)}x`, ""] }), "f")).toBeNull();
  });

  it("reads a term's postings as the numbers they are, and says a term's postings are damaged when they are (past the entries, not ascending, out of place)", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const file = parts(encodeRankingCache("f", ranking!));
    expect(decodeRankingCache(joined(file), "f")).not.toBeNull();
    const terms = file.header.terms as string[];
    const starts = file.header.postingStarts as number[];
    // The term held by the most entries.
    const busiest = terms.reduce((best, _, at) => (starts[at + 1]! - starts[at]! > starts[best + 1]! - starts[best]! ? at : best), 0);
    const term = terms[busiest]!;
    expect(starts[busiest + 1]! - starts[busiest]!).toBeGreaterThan(10);
    // The postings as 4-byte numbers, in the file's byte order (this machine's).
    const numbers = new Uint32Array(Uint8Array.from(file.postings.subarray(0, -1)).buffer);
    const damaged = (change: (postings: Uint32Array, header: Record<string, unknown>) => void) => {
      const postings = Uint32Array.from(numbers);
      const header = structuredClone(file.header);
      change(postings, header);
      return decodeRankingCache(joined({ ...file, header, postings: Buffer.concat([Buffer.from(postings.buffer), Buffer.from("\n")]) }), "f")!;
    };
    // Intact: the same numbers as the index built from the entries.
    expect(termPostings(damaged(() => undefined).index, term)).toEqual(termPostings(ranking!.index, term));
    const at = starts[busiest]! * 2;
    for (const change of [
      (postings: Uint32Array) => (postings[at] = ranking!.candidates.length), // past the entries
      (postings: Uint32Array) => (postings[at + 2] = postings[at]!), // not ascending
      (_: Uint32Array, header: Record<string, unknown>) => ((header.postingStarts as number[])[busiest + 1] = starts[busiest]!), // none
      (_: Uint32Array, header: Record<string, unknown>) => ((header.postingStarts as number[])[busiest + 1] = starts.at(-1)! + 1), // past the postings
    ]) {
      const decoded = damaged(change);
      expect(() => termPostings(decoded.index, term)).toThrow(`the ranking cache's postings of ${JSON.stringify(term)} are damaged`);
      // Other terms are read as they were.
      expect(termPostings(decoded.index, terms[0]!)).toEqual(termPostings(ranking!.index, terms[0]!));
    }
  });

  it("keeps content hashes of different widths, or not ASCII, in its header, and gives them back", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const hashes = ["", "short", "€uro-hash", ...ranking!.candidates.slice(3).map((entry) => entry.contentHash)];
    const candidates = ranking!.candidates.map((entry, at) => ({ ...entry, contentHash: hashes[at]! }));
    const file = encodeRankingCache("f", { ...ranking!, candidates });
    expect([parts(file).header.hashWidth, (parts(file).header.hashes as string[]).length]).toEqual([0, candidates.length]);
    expect(decodeRankingCache(file, "f")!.candidates.map((entry) => entry.contentHash)).toEqual(hashes);
    // All of one width: a column, none in the header.
    expect([parts(encodeRankingCache("f", ranking!)).header.hashWidth, parts(encodeRankingCache("f", ranking!)).header.hashes]).toEqual([16, undefined]);
  });

  it("gives back an observation count of any size, and an empty ranking", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const counts = [0, 1, 2 ** 40 + 1, Number.MAX_SAFE_INTEGER];
    const candidates = ranking!.candidates.map((entry, at) => (at < counts.length ? { ...entry, observationCount: counts[at]! } : entry));
    expect(decodeRankingCache(encodeRankingCache("f", { ...ranking!, candidates }), "f")!.candidates.slice(0, counts.length).map((entry) => entry.observationCount)).toEqual(counts);
    const empty = { candidates: [], index: buildRelevanceIndex([]), orders: entryOrders([]), sharedHashPrefixes: [] };
    const decoded = decodeRankingCache(encodeRankingCache("f", empty), "f")!;
    expect([decoded.candidates, decoded.index.documents, [...indexTerms(decoded.index)]]).toEqual([[], 0, []]);
  });
});

// A cache of `copies` copies of the real bank's entries, decoded: entries made as they are read,
// the same at every read; their fields, names and orders those written.
function expectLazyCache(ranking: RankingData, copies: number): void {
  const candidates = Array.from({ length: copies }, (_, copy) => ranking.candidates.map((entry, at) => ({ ...entry, name: `${entry.name} (${copy})`, contentHash: `${copy}${at.toString(16).padStart(15, "0")}` }))).flat();
  const orders = entryOrders(candidates);
  const decoded = decodeRankingCache(encodeRankingCache("f", { candidates, index: buildRelevanceIndex(candidates), orders, sharedHashPrefixes: [] }), "f")!;
  const { entries } = decoded;
  expect(Array.isArray(entries)).toBe(false);
  expect([entries!.length, entries!.at(-1), entries!.at(candidates.length), entries!.at(1.5)]).toEqual([candidates.length, undefined, undefined, undefined]);
  // The same entry at every read, and, read in order, the candidates (which a first read of them makes whole).
  expect(entries!.at(1300)).toBe(entries!.at(1300));
  expect(entries!.at(1300)!.name).toBe(candidates[1300]!.name);
  expect([...entries!]).toEqual(decoded.candidates);
  expect(decoded.candidates.map((entry) => [entry.contentHash, entry.name, entry.category])).toEqual(candidates.map((entry) => [entry.contentHash, entry.name, entry.category]));
  expect(decoded.orders).toEqual(orders);
  // Fewer entries are made at once, an array.
  expect(Array.isArray(decodeRankingCache(encodeRankingCache("f", ranking), "f")!.entries)).toBe(true);
  // Orders given without inOrder (worked out elsewhere): the file's column is worked out from today's places.
  const { inOrder, ...places } = orders;
  expect(decodeRankingCache(encodeRankingCache("f", { candidates, index: buildRelevanceIndex(candidates), orders: places, sharedHashPrefixes: [] }), "f")!.orders.inOrder).toEqual(inOrder);
}
