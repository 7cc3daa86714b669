import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeEntry } from "../__fixtures__/make-entry.js";
import { buildRelevanceIndex, entryFieldTerms, metadataTopicText, type IndexWeights } from "./relevance-index.js";
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

const WORDS = ["retry", "embedding", "timeout", "hook", "session", "cache", "RetryPolicy", "v2", "the", "löschen", "fast"];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" "));
const entryArbitrary = fc.record({ name: text, description: text, metadata: text }).map(({ name, description, metadata }) => makeEntry({ name, description, metadataText: metadata === "" ? "" : `- Instead: ${metadata}\n- Source: Feature #7` }));
const weightsArbitrary = fc.record({
  name: fc.constantFrom(0, 0.5, 1.5, 3),
  description: fc.constantFrom(0, 1, 2),
  metadata: fc.constantFrom(0, 0.6, 1),
  lengthNormalization: fc.constantFrom(0, 0.5, 0.75, 1),
});

describe("buildRelevanceIndex", () => {
  it("gives each term the postings of BM25F's definition, to the byte and in the order the terms are first met (300 random banks and weights, zero weights too)", () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary, { maxLength: 30 }), weightsArbitrary, (entries, weights) => {
        const index = buildRelevanceIndex(entries, weights);
        expect(Object.entries(index.postings)).toEqual(plainIndex(entries, weights));
        expect(index.documents).toBe(entries.length);
      }),
      { numRuns: 300 },
    );
  });

  it("reads the terms it is given for an entry instead of tokenizing it, and tokenizes the entries it is given none for", () => {
    const entries = [makeEntry({ name: "Retry Embedding Calls", description: "Retry them." }), makeEntry({ name: "Keep Hooks Fast", description: "Measure the hook." })];
    const given = new Map([[entries[0]!, [["kept"], [], []] as const]]);
    const index = buildRelevanceIndex(entries, undefined, given);
    expect(Object.keys(index.postings)).toEqual(["kept", "hook", "fast", "measur"]);
    expect(buildRelevanceIndex(entries, undefined, new Map([[entries[0]!, entryFieldTerms(entries[0]!)]]))).toEqual(buildRelevanceIndex(entries));
  });
});
