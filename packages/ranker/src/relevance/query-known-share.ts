import { indexHasTerm, type AnyRelevanceIndex } from "./relevance-index.js";

/**
 * The share of a query's weight carried by terms that at least one indexed entry holds: 1 when
 * the bank speaks the query's language, near 0 when the query is about what the bank never
 * mentions ("make the pricing page's css grid stack on mobile" against a bank about hooks and
 * specs). Terms are weighted as `queryTerms` gives them, not by rarity, so that a few familiar
 * words in a query about something else do not make it familiar; 0 for a query with no terms.
 *
 * @example
 * queryKnownShare(queryTerms({ text: "retry the css grid" }), buildRelevanceIndex(entries));
 * // 0.33 when only "retri" is in the bank
 */
export function queryKnownShare(terms: ReadonlyMap<string, number>, index: AnyRelevanceIndex): number {
  let total = 0;
  let known = 0;
  for (const [term, weight] of terms) {
    total += weight;
    if (indexHasTerm(index, term)) known += weight;
  }
  return total === 0 ? 0 : known / total;
}
