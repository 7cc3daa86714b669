import { join } from "node:path";
import { buildRelevanceIndex, entryOrders, indexTerms, planInjection, termPostings } from "@iflow-memory/ranker";
import { CORPORA_DIR } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { prepareSessionInjection } from "../prepare-session-injection.js";
import { decodeRankingCache, encodeRankingCache } from "./ranking-cache-file.js";

const sources = { projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") };
const bytes = (text: string) => new TextEncoder().encode(text);

describe("encodeRankingCache / decodeRankingCache", () => {
  it("gives back every entry of the real bank as it was, and the same index", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const decoded = decodeRankingCache(bytes(encodeRankingCache("f", ranking!)), "f")!;
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
    const decoded = decodeRankingCache(bytes(encodeRankingCache("f", ranking!)), "f")!;
    const request = { limit: 20, maxChars: 9000, query: { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"], text: "FTS5 keyword search" } };
    expect(planInjection({ ...request, candidates: decoded.candidates, ranking: { index: decoded.index } }).block).toBe(planInjection({ ...request, candidates: ranking!.candidates, ranking: { index: ranking!.index } }).block);
  });

  it("gives back the orders and shared hash prefixes worked out with the index", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const decoded = decodeRankingCache(bytes(encodeRankingCache("f", { ...ranking!, sharedHashPrefixes: ["0033af00"] })), "f")!;
    expect([decoded.orders, decoded.sharedHashPrefixes]).toEqual([ranking!.orders, ["0033af00"]]);
    expect(decoded.orders.order).toBeInstanceOf(Int32Array);
    // Worked out again from the decoded entries (whose dates and positions are read from their lines): the same.
    expect(entryOrders(decoded.candidates)).toEqual(ranking!.orders);
  });

  it("parses an entry's own line only when its text is asked for", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const text = encodeRankingCache("f", ranking!);
    const lines = text.split("\n");
    // The second entry's line broken (same length, so the offsets still hold): only reading its text fails.
    lines[2] = "x".repeat(lines[2]!.length);
    const decoded = decodeRankingCache(bytes(lines.join("\n")), "f")!;
    expect([decoded.candidates[0]!.name, decoded.candidates[1]!.contentHash]).toEqual([ranking!.candidates[0]!.name, ranking!.candidates[1]!.contentHash]);
    expect(() => decoded.candidates[1]!.description).toThrow(SyntaxError);
  });

  it("reads an entry's name from the start of its line alone, whatever the name holds", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const names = [
      'a "quoted" name \\ with a backslash, and one at its end \\',
      "€".repeat(160), // three-byte characters, and the next field's cut in the middle of one by the bytes read
      `${"long ".repeat(150)}name`, // past the bytes read for a name: the whole line is parsed
      "\u0000 control\ncharacters\u001f and \ud800 a lone surrogate",
    ];
    const candidates = ranking!.candidates.map((entry, at) => (at < names.length ? { ...entry, name: names[at]!, ...(at === 1 ? { headerLine: `### x${"€".repeat(20)}` } : {}) } : entry));
    const text = encodeRankingCache("f", { ...ranking!, candidates });
    const intact = decodeRankingCache(bytes(text), "f")!;
    expect(intact.candidates.slice(0, names.length).map((entry) => entry.name)).toEqual(names);
    // Each line broken after its name (same length: the offsets hold): a name that fits is read
    // without the rest of its line, which only its other fields need.
    const lines = text.split("\n").map((line, at) => {
      if (at === 0 || at > names.length) return line;
      const nameEnd = line.indexOf('","headerLine"') + 1;
      return line.slice(0, nameEnd) + "x".repeat(Buffer.byteLength(line.slice(nameEnd)));
    });
    const broken = decodeRankingCache(bytes(lines.join("\n")), "f")!.candidates;
    expect([broken[0]!.name, broken[1]!.name, broken[3]!.name]).toEqual([names[0], names[1], names[3]]);
    expect(() => broken[2]!.name).toThrow(SyntaxError);
    expect(() => broken[0]!.description).toThrow(SyntaxError);
  });

  it("is no cache under another fingerprint, torn, or not a cache at all", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const text = encodeRankingCache("f", ranking!);
    expect(decodeRankingCache(bytes(text), "g")).toBeNull();
    expect(decodeRankingCache(bytes(text.slice(0, -100)), "f")).toBeNull();
    expect(decodeRankingCache(bytes("{}\n"), "f")).toBeNull();
    expect(decodeRankingCache(bytes("not json"), "f")).toBeNull();
    // Orders that do not hold a place for every entry: from another build, or damaged.
    const header = JSON.parse(text.slice(0, text.indexOf("\n"))) as Record<string, unknown[]>;
    expect(decodeRankingCache(bytes(`${JSON.stringify(header)}${text.slice(text.indexOf("\n"))}`), "f")).not.toBeNull();
    for (const key of ["order", "recency"]) {
      const damaged = { ...header, [key]: header[key]!.slice(1) };
      expect(decodeRankingCache(bytes(`${JSON.stringify(damaged)}${text.slice(text.indexOf("\n"))}`), "f")).toBeNull();
    }
  });
});
