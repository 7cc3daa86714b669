import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INDEX_WORDS, indexEntryArbitrary, indexWeightsArbitrary } from "../__fixtures__/index-arbitraries.js";
import { makeEntry } from "../__fixtures__/make-entry.js";
import { buildRelevanceIndex, entryFieldTerms, metadataTopicText, numberedFieldTerms, numberTerms, postingNumbers, postingText, termPostings, type IndexWeights, type NumberedTerms } from "./relevance-index.js";
import { tokenizeText } from "./tokenize-text.js";

// BM25F's pseudo-frequencies as the index defines them, written plainly (a Map per entry, a
// posting string per entry and term): the built index must equal it to the byte, postings and
// the order of terms alike, so that every ranking and plan read from it stays the same.
function plainIndex(entries: readonly ReturnType<typeof makeEntry>[], weights: IndexWeights) {
  const fields = entries.map((entry) => [tokenizeText(entry.name), tokenizeText(entry.description), tokenizeText(metadataTopicText(entry))]);
  const fieldWeights = [weights.name, weights.description, weights.metadata];
  const averages = [0, 1, 2].map((field) => Math.max(1, fields.reduce((sum, document) => sum + document[field]!.length, 0) / Math.max(1, fields.length)));
  const lists = new Map<string, string[]>();
  fields.forEach((document, position) => {
    const weighted = new Map<string, number>();
    document.forEach((terms, field) => {
      const weight = fieldWeights[field]! / (1 - weights.lengthNormalization + (weights.lengthNormalization * terms.length) / averages[field]!);
      for (const term of terms) weighted.set(term, (weighted.get(term) ?? 0) + weight);
    });
    for (const [term, count] of weighted) {
      const posting = `${position.toString(36)}:${Math.max(1, Math.round(count * 100)).toString(36)}`;
      lists.set(term, [...(lists.get(term) ?? []), posting]);
    }
  });
  return Object.entries(Object.fromEntries([...lists].map(([term, list]) => [term, list.join(",")])));
}

describe("postingNumbers / postingText", () => {
  it("read a term's postings text as numbers (counts in hundredths, positions ascending) and write it back, for every term of random banks (200)", () => {
    fc.assert(
      fc.property(fc.array(indexEntryArbitrary, { minLength: 1, maxLength: 30 }), (entries) => {
        const index = buildRelevanceIndex(entries);
        for (const [term, text] of Object.entries(index.postings)) {
          const numbers = postingNumbers(text);
          expect(postingText(numbers)).toBe(text);
          expect(numbers.map((number, at) => (at % 2 === 0 ? number : number / 100))).toEqual(termPostings(index, term));
          for (let at = 2; at < numbers.length; at += 2) expect(numbers[at]).toBeGreaterThan(numbers[at - 2]!);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("buildRelevanceIndex", () => {
  it("gives each term the postings of BM25F's definition, to the byte and in the order the terms are first met (300 random banks and weights, zero weights too)", () => {
    fc.assert(
      fc.property(fc.array(indexEntryArbitrary, { maxLength: 30 }), indexWeightsArbitrary, (entries, weights) => {
        const index = buildRelevanceIndex(entries, weights);
        expect(Object.entries(index.postings)).toEqual(plainIndex(entries, weights));
        expect(index.documents).toBe(entries.length);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the postings of BM25F's definition to the byte for banks of up to 3,000 entries, long fields and large weights (positions and counts of several base-36 digits)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3_000 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(1, 40, 5_000),
        (size, seed, boost) => {
          let state = seed;
          const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
          const words = (count: number) => Array.from({ length: count }, () => INDEX_WORDS[next() % INDEX_WORDS.length]).join(" ");
          const entries = Array.from({ length: size }, () => makeEntry({ name: words(next() % 4), description: words(next() % 60), metadataText: `- Instead: ${words(next() % 9)}` }));
          const weights = { name: 1.5 * boost, description: boost, metadata: 0.6, lengthNormalization: 0.75 };
          expect(Object.entries(buildRelevanceIndex(entries, weights).postings)).toEqual(plainIndex(entries, weights));
        },
      ),
      { numRuns: 12 },
    );
  });

  it("reads terms given numbered (a vocabulary per file, shared and grown) as it reads them given as lists (300 random banks and weights)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(indexEntryArbitrary, fc.integer({ min: 0, max: 2 })), { maxLength: 30 }), indexWeightsArbitrary, (drawn, weights) => {
        const entries = drawn.map(([entry]) => entry);
        // Two files' vocabularies; some entries given none (tokenized by the index).
        const files = [0, 1].map(() => ({ vocabulary: [] as string[], positions: new Map<string, number>() }));
        const given = new Map<(typeof entries)[number], NumberedTerms>();
        drawn.forEach(([entry, file]) => {
          if (file < 2) given.set(entry, { vocabulary: files[file]!.vocabulary, numbers: numberTerms(entryFieldTerms(entry), files[file]!.vocabulary, files[file]!.positions) });
        });
        for (const [entry, numbered] of given) expect(numberedFieldTerms(numbered)).toEqual(entryFieldTerms(entry));
        const index = buildRelevanceIndex(entries, weights, given);
        expect(Object.entries(index.postings)).toEqual(plainIndex(entries, weights));
      }),
      { numRuns: 300 },
    );
  });

  it("tokenizes an entry whose numbered terms are damaged (a position past its vocabulary, not a whole number, not three lists), and numbers nothing of them", () => {
    const entries = [makeEntry({ name: "Retry Embedding Calls", description: "Retry them." }), makeEntry({ name: "Keep Hooks Fast", description: "Measure the hook." })];
    const vocabulary = ["zzz", "yyy"];
    const damaged: unknown[] = [[[0, 5], [], []], [[0, 1.5], [], []], [[0, -1], [], []], [[0], ["1"], []], [[0], []], [[0], [], [], []], "0 1", null];
    for (const numbers of damaged) {
      const given = { vocabulary, numbers } as NumberedTerms;
      expect(buildRelevanceIndex(entries, undefined, new Map([[entries[0]!, given]]))).toEqual(buildRelevanceIndex(entries));
      expect(numberedFieldTerms(given)).toBeNull();
    }
    const numbered = { vocabulary, numbers: [[], [1], [0, 0]] };
    expect(numberedFieldTerms(numbered)).toEqual([[], ["yyy"], ["zzz", "zzz"]]);
    expect(buildRelevanceIndex([entries[0]!], undefined, new Map([[entries[0]!, numbered]]))).toEqual(buildRelevanceIndex([entries[0]!], undefined, new Map([[entries[0]!, [[], ["yyy"], ["zzz", "zzz"]] as const]])));
  });

  it("reads the terms it is given for an entry instead of tokenizing it, and tokenizes the entries it is given none for", () => {
    const entries = [makeEntry({ name: "Retry Embedding Calls", description: "Retry them." }), makeEntry({ name: "Keep Hooks Fast", description: "Measure the hook." })];
    const given = new Map([[entries[0]!, [["kept"], [], []] as const]]);
    const index = buildRelevanceIndex(entries, undefined, given);
    expect(Object.keys(index.postings)).toEqual(["kept", "hook", "fast", "measur"]);
    expect(buildRelevanceIndex(entries, undefined, new Map([[entries[0]!, entryFieldTerms(entries[0]!)]]))).toEqual(buildRelevanceIndex(entries));
  });
});
