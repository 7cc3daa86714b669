import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseKnowledgeBank } from "@iflow-memory/parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INDEX_WORDS, indexEntryArbitrary, indexWeightsArbitrary } from "../__fixtures__/index-arbitraries.js";
import { makeEntry } from "../__fixtures__/make-entry.js";
import { lazyRelevanceIndex } from "./lazy-relevance-index.js";
import { rankEntries } from "./rank-entries.js";
import { PackedTerms } from "./packed-terms.js";
import { buildRelevanceIndex, entryFieldTerms, fieldWordWeights, numberTerms, postingNumbers, termPostings, weightedCount, type IndexWeights, type KnownTerms, type RelevanceIndex } from "./relevance-index.js";
import type { LazyRelevanceIndex } from "./lazy-relevance-index.js";

// Terms a query may ask for: those of the words, and some no entry holds.
const QUERY_TERMS = [...new Set(INDEX_WORDS.flatMap((word) => entryFieldTerms(makeEntry({ name: word, description: "", metadataText: "" }))[0]))].concat(["toString", "__proto__", "absent", "gone"]);

// Everything a ranking reads of an index, compared with the built one's: the documents, the
// vocabulary's size, whether it holds each term and each term's postings.
// Asked first (`prefetchFirst`), the query's terms are counted in the walk that finds the held terms.
function expectSameIndex(lazy: LazyRelevanceIndex, built: RelevanceIndex, asked: readonly string[], prefetchFirst = false): void {
  if (prefetchFirst) lazy.prefetch(asked);
  expect(lazy.documents).toBe(built.documents);
  for (const term of QUERY_TERMS) expect(lazy.has(term)).toBe(Object.hasOwn(built.postings, term));
  expect(lazy.vocabulary).toBe(Object.keys(built.postings).length);
  lazy.prefetch(asked);
  for (const term of asked) expect(termPostings(lazy, term)).toEqual(termPostings(built, term));
  for (const term of QUERY_TERMS) if (lazy.has(term)) expect(lazy.read(term)).toBe(built.postings[term]);
}

describe("lazyRelevanceIndex", () => {
  it("gives the words per field its postings were summed from (fieldCounts): summed with the field weights, every term's postings as built (200 random banks and weights); null past 255 words of a term in a field", () => {
    fc.assert(
      fc.property(fc.array(indexEntryArbitrary, { maxLength: 30 }), indexWeightsArbitrary, (entries, weights: IndexWeights) => {
        const counts = lazyRelevanceIndex(entries, weights).fieldCounts()!;
        expect(Array.from(counts.lengths)).toEqual(entries.flatMap((entry) => entryFieldTerms(entry).map((terms) => terms.length)));
        const wordWeights = fieldWordWeights(counts.lengths, entries.length, weights);
        const built = buildRelevanceIndex(entries, weights);
        expect([...counts.byTerm.keys()].sort()).toEqual(Object.keys(built.postings).sort());
        for (const [term, text] of Object.entries(built.postings)) {
          const postings = postingNumbers(text);
          const termCounts = counts.byTerm.get(term)!;
          expect(termCounts.length).toBe((postings.length / 2) * 3);
          postings.forEach((number, at) => at % 2 === 1 && expect(weightedCount(wordWeights, postings[at - 1]!, termCounts, ((at - 1) / 2) * 3), term).toBe(number));
        }
      }),
      { numRuns: 200 },
    );
    const repeated = makeEntry({ name: "Loops", description: Array.from({ length: 256 }, () => "retry").join(" ") });
    expect(lazyRelevanceIndex([repeated]).fieldCounts()).toBeNull();
    expect(lazyRelevanceIndex([{ ...repeated, description: Array.from({ length: 255 }, () => "retry").join(" ") }]).fieldCounts()?.byTerm.get("retri")).toEqual(Uint8Array.of(0, 255, 0));
  });

  it("gives what buildRelevanceIndex builds, term for term, asked for a query's terms first or not, before and after it is built whole: entries numbered in two files' vocabularies (with terms no entry holds), packed with a third file's, tokenized, or damaged (300 random banks and weights, zero weights too)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(indexEntryArbitrary, fc.integer({ min: 0, max: 5 })), { maxLength: 30 }),
        indexWeightsArbitrary,
        fc.subarray(QUERY_TERMS),
        (drawn, weights: IndexWeights, asked) => {
          const entries = drawn.map(([entry]) => entry);
          // Each file's vocabulary holds terms no entry holds any more (an edited file's cache keeps them).
          const files = [0, 1, 2].map(() => ({ vocabulary: ["retri", "gone"], positions: new Map([["retri", 0], ["gone", 1]]) }));
          const given = new Map<(typeof entries)[number], KnownTerms>();
          // The third file's entries, packed once all are numbered (as a file's cache keeps them), each with its place there.
          const packing: [(typeof entries)[number], number[][]][] = [];
          drawn.forEach(([entry, kind]) => {
            if (kind < 2) given.set(entry, { vocabulary: files[kind]!.vocabulary, numbers: numberTerms(entryFieldTerms(entry), files[kind]!.vocabulary, files[kind]!.positions) });
            // Damaged: the position of a term no entry holds ("gone"), then one its vocabulary lacks: the entry is tokenized, and "gone" not held.
            else if (kind === 3) given.set(entry, { vocabulary: files[0]!.vocabulary, numbers: [[1, 1_000_000], [], []] });
            else if (kind === 4) packing.push([entry, numberTerms(entryFieldTerms(entry), files[2]!.vocabulary, files[2]!.positions)]);
            // Not an entry of its pack: tokenized.
            else if (kind === 5) given.set(entry, { packed: PackedTerms.pack(files[2]!.vocabulary, [])!, at: 0 });
          });
          const packed = PackedTerms.pack(files[2]!.vocabulary, packing.map(([, numbers]) => numbers))!;
          packing.forEach(([entry], at) => given.set(entry, { packed, at }));
          const built = buildRelevanceIndex(entries, weights, given);
          // Every term given is the entry's own: the index of the entries tokenized.
          expect(built).toEqual(buildRelevanceIndex(entries, weights));
          expectSameIndex(lazyRelevanceIndex(entries, weights, given), built, asked, true);
          const lazy = lazyRelevanceIndex(entries, weights, given);
          expectSameIndex(lazy, built, asked);
          expect([...lazy.terms()]).toEqual(Object.keys(built.postings));
          expect(lazy.whole()).toEqual(built);
          expectSameIndex(lazy, built, QUERY_TERMS);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("ranks the real bank as the built index does, for every query of its words, and reads only the terms asked before it is built whole", () => {
    const bank = resolve(__dirname, "../../../../test/fixtures/corpora/iflow-kb-2026-04/docs/knowledge-bank");
    const entries = (["anti-patterns", "heuristics", "patterns"] as const).flatMap(
      (category) => parseKnowledgeBank(readFileSync(resolve(bank, `${category}.md`), "utf8"), { category, scope: "local", path: `${category}.md` }).entries,
    );
    const built = buildRelevanceIndex(entries);
    const lazy = lazyRelevanceIndex(entries);
    const queries = ["embedding call timeouts", "atomic writes of state files", "hook budget measured against node", "the css grid on mobile"];
    for (const text of queries) {
      expect(rankEntries(entries, { text }, { index: lazy }).map((ranked) => [ranked.entry.name, ranked.score])).toEqual(
        rankEntries(entries, { text }, { index: built }).map((ranked) => [ranked.entry.name, ranked.score]),
      );
    }
    expect(lazy.vocabulary).toBe(Object.keys(built.postings).length);
    expect(lazy.whole()).toEqual(built);
  });
});
