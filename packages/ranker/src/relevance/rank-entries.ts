import type { Confidence, Entry } from "@iflow-memory/parser";
import { firstInOrder } from "../first-in-order.js";
import { entryArray, type EntryList } from "../entry-list.js";
import { entryOrders, type EntryOrders } from "../sort-entries.js";
import { DEFAULT_QUERY_WEIGHTS, queryTerms, type QueryWeights, type RelevanceQuery } from "./query-terms.js";
import { queryKnownShare } from "./query-known-share.js";
import { buildRelevanceIndex, indexVocabulary, termPostings, type AnyRelevanceIndex } from "./relevance-index.js";

/** What a reader's feedback on an entry says so far (`record_feedback`, `iflow-memory feedback`). */
export interface EntryFeedback {
  helpful: number;
  unhelpful: number;
}

/** The knobs of the ranking; the defaults are those `pnpm eval:relevance` chose by cross-validation. */
export interface RankingOptions {
  /** The index of exactly these entries, e.g. from a cache; built when absent. */
  index?: AnyRelevanceIndex;
  queryWeights?: QueryWeights;
  /** BM25's term-frequency saturation. */
  saturation?: number;
  /**
   * The relevance floor. First the query as a whole: nothing is ranked when less than
   * `minimumKnownShare` of its weight is on terms the bank holds at all (`queryKnownShare`; less
   * for a bank of a narrower vocabulary: `knownShareGate`), since
   * a query mostly about what the bank never speaks of (a CSS grid, a docker image, a licence
   * year) matches nothing, however well one of its few familiar words does. Then each entry: it
   * is ranked only when its relevance is at least `minimum` × the largest weight a term can have
   * (BM25's idf of a term no entry holds, log(1 + (entries + 0.5) / 0.5): relevance grows with the
   * log of the bank's size, and one floor must fit a bank of ten entries as well as one of 50,000) and at
   * least `relativeToBest` × the best entry's, it holds at least `minimumTerms` of the query's
   * terms (at most half of them),
   * and those terms make up at least `minimumCoverage` of the query's weight (each term weighted
   * by how rare it is in the bank; a term the bank never uses counts as the rarest).
   */
  floor?: RelevanceFloor;
  /** How far prominence (observations, confidence, recency) lifts relevance: score = relevance × (1 + weight × prominence). */
  prominenceWeight?: number;
  /**
   * Each entry's place in today's order and in recency order (`entryOrders`), computed once for
   * many queries over the same entries (an MCP server's life); computed for the matching entries
   * alone when absent. The ranking is the same either way.
   */
  orders?: EntryOrders;
  /**
   * What the score reads of the entry at each position, where it is kept apart from the entries
   * (a ranking cache's columns): the entries over the floor are then scored without being made —
   * a list that makes each when first read (at 50,000 entries, thousands pass a session's floor)
   * makes only those the ranking hands out. Read from the entries when absent; the ranking is the same.
   */
  facts?: RankingFacts;
  /** Feedback by content hash. */
  feedback?: ReadonlyMap<string, EntryFeedback>;
  /** Only the best so many (the first of the whole ranking, the same): what is not returned is never put in order. */
  limit?: number;
}

/**
 * The fields of the candidate at each position (0 to `length − 1` of the ranked list) that its
 * score reads (`RankingOptions.facts`): each the same as `entries.at(position)`'s.
 *
 * @example
 * const facts: RankingFacts = { observationCount: (position) => counts[position]!, confidence: () => "high", contentHash: (position) => hashes[position]! };
 */
export interface RankingFacts {
  observationCount(position: number): number;
  confidence(position: number): Confidence;
  contentHash(position: number): string;
}

export interface RelevanceFloor {
  minimumKnownShare: number;
  minimum: number;
  relativeToBest: number;
  minimumTerms: number;
  minimumCoverage: number;
}

export interface RankedEntry<T extends Entry = Entry> {
  entry: T;
  /** relevance × (1 + prominence weight × prominence) × feedback factor. */
  score: number;
  /** The full-text match of the entry to the query (BM25F). */
  relevance: number;
  /** 0–1: observation count, confidence and recency. */
  prominence: number;
  /** 1 without feedback; above 1 when readers found the entry helpful, below when not. */
  feedbackFactor: number;
  /** The query's terms (stemmed) that the entry holds, strongest first. */
  matchedTerms: string[];
  /** 0–1: the share of the query's weight (by rarity) that the matched terms carry. */
  coverage: number;
}

export const DEFAULT_RANKING = {
  saturation: 1.2,
  floor: { minimumKnownShare: 0.7, minimum: 0.24, relativeToBest: 0.1, minimumTerms: 1, minimumCoverage: 0 },
  prominenceWeight: 0.3,
} as const;

/**
 * The floor of what a prompt adds mid-session (the UserPromptSubmit hook): much stricter per entry
 * than a session start's, since most prompts are small steps ("try that again", "looks good, next
 * task") whose one familiar word would otherwise bring entries at every turn, and an entry that
 * does not apply costs every later turn its context. An entry must match strongly (relevance ≥ 1.6
 * × the rarest term's weight: 10 on the real 265-entry bank, 5.2 on a bank of a dozen) and nearly
 * as well as the best one (≥ 70% of it). Chosen by `pnpm eval:relevance` on the dev half of its
 * labelled prompts (eval/prompt-recall), for precision first (F0.5).
 */
export const PROMPT_RECALL_FLOOR: RelevanceFloor = { minimumKnownShare: 0.6, minimum: 1.6, relativeToBest: 0.7, minimumTerms: 1, minimumCoverage: 0.1 };

/**
 * The floor of `search` and the MCP `search_memory`: a reader (the user, the model) judges a
 * ranked list, so nothing that matches a meaningful term of the query (stop words never count) is
 * left out; the strict floors are for what is injected unasked.
 */
export const SEARCH_FLOOR: RelevanceFloor = { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 };

/**
 * The vocabulary (distinct terms) of the bank the known-share gates were tuned on: the real
 * 2026-04 bank with the global-store example, 265 entries (`pnpm eval:relevance`).
 */
export const GATE_VOCABULARY = 1472;

/**
 * How the gate eases for a narrower vocabulary: its share × (terms ÷ GATE_VOCABULARY) ^ this.
 * Chosen by `pnpm eval:relevance` on the relevance set's dev contexts asked of the February bank
 * (41 entries, 548 terms), from 0 (the gate in full) to 1 (in proportion to the vocabulary).
 */
export const GATE_EXPONENT = 0.25;

/**
 * The known share a query needs to be ranked at all: `floor.minimumKnownShare` for a bank whose
 * vocabulary is as broad as the one the gate was tuned on (`GATE_VOCABULARY` terms), and less for
 * a narrower one (`GATE_EXPONENT`). A bank of a dozen entries knows a few hundred words, so it
 * knows little of any query, a relevant one included ("the state file ends up half written
 * after a crash" asks a bank that holds "Atomic Writes for State Files" mostly in words it
 * never uses).
 *
 * @example
 * knownShareGate(DEFAULT_RANKING.floor, buildRelevanceIndex(entries)); // 0.7 for a bank of hundreds
 */
export function knownShareGate(floor: Pick<RelevanceFloor, "minimumKnownShare">, index: AnyRelevanceIndex): number {
  let size = VOCABULARY_SIZES.get(index);
  if (size === undefined) {
    size = indexVocabulary(index);
    VOCABULARY_SIZES.set(index, size);
  }
  return floor.minimumKnownShare * Math.min(1, (size / GATE_VOCABULARY) ** GATE_EXPONENT);
}
const VOCABULARY_SIZES = new WeakMap<AnyRelevanceIndex, number>();

const CONFIDENCE_SCORE: Record<Confidence, number> = { high: 1, medium: 0.5, low: 0 };
// Feedback moves an entry by at most this factor either way, and a single vote by much less:
// (helpful − unhelpful) / (votes + FEEDBACK_PRIOR) is shrunk towards 0 while votes are few.
const FEEDBACK_RANGE = 0.5;
const FEEDBACK_PRIOR = 3;

/**
 * Ranks entries for a query: those that match it (over the relevance floor), best first, each
 * with its score and the reason. Relevance is BM25F over name, description and the metadata's
 * topic lines; prominence (observations, confidence, recency) and feedback lift it, so that
 * between equally relevant entries the proven one wins; ties keep today's order (`sortEntries`).
 * A query with no terms matches nothing: callers fall back to today's order.
 *
 * @example
 * rankEntries(entries, { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"] })
 *   .map((ranked) => ranked.entry.name); // ["Retry With Backoff on Embedding Calls", …]
 */
export function rankEntries<T extends Entry>(entries: EntryList<T>, query: RelevanceQuery, options: RankingOptions = {}): RankedEntry<T>[] {
  return rankingOf(entries, query, options).first(options.limit ?? Number.POSITIVE_INFINITY);
}

/**
 * `rankEntries`' ranking, read as far as it is needed: every entry is scored, but only those
 * read are put in order and given their reasons — at 50,000 entries a query's common words match
 * tens of thousands, of which a plan shows or names a few hundred.
 */
export interface Ranking<T extends Entry> {
  /** The first `count` of the ranking (all of it, for an infinite count): `rankEntries` with that limit. */
  first(count: number): RankedEntry<T>[];
  /** Those of `chosen` that the ranking ranks, each as it ranks it. */
  among(chosen: readonly T[]): Map<T, RankedEntry<T>>;
}

/**
 * The ranking of `entries` for `query` (see `rankEntries`), to be read in part.
 *
 * @example
 * const ranking = rankingOf(candidates, query, { index, orders });
 * ranking.first(5); // the five best, the rest never put in order
 * ranking.among(shown).get(entry)?.matchedTerms; // why an entry shown for another reason matches too
 */
export function rankingOf<T extends Entry>(entries: EntryList<T>, query: RelevanceQuery, options: RankingOptions = {}): Ranking<T> {
  const terms = queryTerms(query, options.queryWeights ?? DEFAULT_QUERY_WEIGHTS);
  if (terms.size === 0 || entries.length === 0) return nothingRanked();
  const index = options.index ?? buildRelevanceIndex(entryArray(entries));
  const saturation = options.saturation ?? DEFAULT_RANKING.saturation;
  const floor = options.floor ?? DEFAULT_RANKING.floor;
  const prominenceWeight = options.prominenceWeight ?? DEFAULT_RANKING.prominenceWeight;
  // An index read as far as it is asked (`lazyRelevanceIndex`) learns the query's terms first.
  if ("prefetch" in index) index.prefetch?.(terms.keys());
  if (queryKnownShare(terms, index) < knownShareGate(floor, index)) return nothingRanked();

  const { relevance, covered, termCounts, matchedPositions, rarest, queryWeight, scored } = matchQuery(entries.length, terms, index, saturation);
  // A query of two or three terms is met by one that matches well.
  const termsNeeded = Math.min(floor.minimumTerms, Math.max(1, Math.floor(terms.size / 2)));
  const least = floor.minimum * rarest;
  const coverageNeeded = floor.minimumCoverage * queryWeight;
  // One pass over the matching entries (in a new process, each pass over 16,000 of them costs
  // milliseconds): the best relevance; those over the floor but for its share of the best, known
  // after it; and, where the orders were computed beforehand, their places in recency.
  const global = options.orders;
  const places = global === undefined ? null : new Int32Array(matchedPositions.length);
  const over: number[] = [];
  let best = 0;
  // (As in `matchQuery`, what the loop can take from outside it is taken there.)
  const matched = matchedPositions.length;
  const recencies = global?.recency;
  for (let at = 0; at < matched; at++) {
    const position = matchedPositions[at]!;
    const value = relevance[position]!;
    if (value > best) best = value;
    if (value >= least && termCounts[position]! >= termsNeeded && covered[position]! >= coverageNeeded) over.push(position);
    if (places !== null) places[at] = recencies![position]!;
  }
  const threshold = Math.max(least, floor.relativeToBest * best);
  const passing = threshold === least ? over : over.filter((position) => relevance[position]! >= threshold);
  if (passing.length === 0) return nothingRanked();

  // Today's order and recency among the entries that match at all (over the floor or not, so
  // that the floor decides only what is left out): a large bank is not sorted whole, unless its
  // orders were computed once beforehand. The matching entries are taken in the list's order, so
  // that the last tie-break (the list's order) is the same both ways.
  const order = new Int32Array(entries.length);
  const recency = new Int32Array(entries.length);
  const last = Math.max(1, matchedPositions.length - 1);
  const prominence = new Float64Array(entries.length);
  const feedbackFactor = new Float64Array(entries.length);
  const score = new Float64Array(entries.length);
  // (No vote yet, as on most machines: no entry's hash is read to find none.)
  const feedback = options.feedback !== undefined && options.feedback.size > 0 ? options.feedback : undefined;
  const facts = options.facts ?? entryFacts(entries);
  const scoreAt = (position: number): void => {
    prominence[position] = prominenceOf(facts.observationCount(position), facts.confidence(position), 1 - recency[position]! / last);
    feedbackFactor[position] = feedback === undefined ? 1 : feedbackFactorOf(feedback.get(facts.contentHash(position)));
    score[position] = relevance[position]! * (1 + prominenceWeight * prominence[position]!) * feedbackFactor[position]!;
  };
  // Where the orders were computed beforehand, each passing entry is scored when first needed
  // (`scoreOnce`); else all of them here.
  let scoreOnce: ((position: number) => void) | null = null;
  if (global === undefined || places === null) {
    const matching = Int32Array.from(matchedPositions).sort();
    const local = entryOrders(Array.from(matching, (position) => entries.at(position)!));
    matching.forEach((position, at) => {
      order[position] = local.order[at]!;
      recency[position] = local.recency[at]!;
    });
    for (const position of passing) scoreAt(position);
  } else {
    // Recency among the matching entries: how many of them are more recent, found by halving in
    // their places among all, sorted (each place is one entry's). Worked out for the entries
    // scored alone: at 50,000 entries a session's query passes thousands, of which a plan reads a
    // few hundred.
    places.sort();
    const done = new Uint8Array(entries.length);
    scoreOnce = (position) => {
      if (done[position] === 1) return;
      done[position] = 1;
      order[position] = global.order[position]!;
      recency[position] = lowerBound(places, global.recency[position]!);
      scoreAt(position);
    };
  }
  const compare = (a: number, b: number) => score[b]! - score[a]! || order[a]! - order[b]!;
  // How far prominence (at most 1) and feedback can lift an entry's relevance: no score is over
  // its relevance × this (with a margin for rounding).
  let lift = 1;
  if (feedback !== undefined) for (const votes of feedback.values()) lift = Math.max(lift, feedbackFactorOf(votes));
  const reach = (1 + Math.max(0, prominenceWeight)) * lift * (1 + 1e-9);
  // The positions of the first `count` passing entries, in the ranking's order. Scored lazily:
  // the entries at least as relevant as the `count`-th most relevant (`count` or more, ties
  // included) are scored, and the least of their scores is a bar that `count` entries reach; an
  // entry whose relevance × `reach` is under it is outscored by all of those, so only the entries
  // that reach it are scored and put in order.
  const firstPositions = (count: number): number[] => {
    const once = scoreOnce;
    if (once === null || count * 8 >= passing.length) {
      if (once !== null) for (const position of passing) once(position);
      return firstInOrder(passing, count, compare);
    }
    // (A typed array sorts in native code: at 50,000 entries thousands pass.)
    const relevances = new Float64Array(passing.length);
    for (let at = 0; at < passing.length; at++) relevances[at] = relevance[passing[at]!]!;
    const countth = relevances.sort()[passing.length - count]!;
    let bar = Number.POSITIVE_INFINITY;
    for (const position of passing) {
      if (relevance[position]! < countth) continue;
      once(position);
      bar = Math.min(bar, score[position]!);
    }
    // A score that is no number (a fact read damaged) bars nothing: all are scored, as without a bar.
    const contenders = Number.isNaN(bar) ? passing : passing.filter((position) => relevance[position]! * reach >= bar);
    for (const position of contenders) once(position);
    return firstInOrder(contenders, count, compare);
  };

  // The query's terms the entry at `position` holds, by what each gave it (the reason, strongest
  // first): each found in its term's postings by halving (their positions ascend), when first
  // asked for — a plan reads the reasons of the few entries it shows, not of the hundreds it ranks.
  const reasonsOf = (position: number): string[] => {
    const reasons: Array<[string, number]> = [];
    for (const { term, weight, idf, postings } of scored) {
      const at = postingAt(postings, position);
      if (at < 0) continue;
      const count = postings[at + 1]!;
      reasons.push([term, weight * idf * ((count * (saturation + 1)) / (count + saturation))]);
    }
    return reasons.sort((a, b) => b[1] - a[1]).map(([term]) => term);
  };
  // The entries at `positions`, each with its score and its reasons.
  const ranked = (positions: readonly number[]): RankedEntry<T>[] =>
    positions.map((position) => {
      let matchedTerms: string[] | undefined;
      return {
        entry: entries.at(position)!,
        score: score[position]!,
        relevance: relevance[position]!,
        prominence: prominence[position]!,
        feedbackFactor: feedbackFactor[position]!,
        get matchedTerms() {
          return (matchedTerms ??= reasonsOf(position));
        },
        coverage: covered[position]! / queryWeight,
      };
    });
  // The longest beginning read so far: a shorter one is a part of it.
  let read: RankedEntry<T>[] = [];
  let readAll = false;
  return {
    first(count) {
      if (count > read.length && !readAll) {
        read = ranked(firstPositions(Math.min(count, passing.length)));
        readAll = read.length === passing.length;
      }
      return read.slice(0, count);
    },
    among(chosen) {
      const wanted = new Set(chosen);
      // By hash first: a list that makes each entry when first read makes only those chosen.
      const hashes = new Set(chosen.map((entry) => entry.contentHash));
      const positions = passing.filter((position) => hashes.has(facts.contentHash(position)) && wanted.has(entries.at(position)!));
      if (scoreOnce !== null) for (const position of positions) scoreOnce(position);
      return new Map(ranked(positions).map((item) => [item.entry, item]));
    },
  };
}

function nothingRanked<T extends Entry>(): Ranking<T> {
  return { first: () => [], among: () => new Map() };
}

// What the query's terms give each entry that holds one: its relevance (BM25F), the weight of
// the terms it holds (coverage), how many it holds. The last query's, kept per index: a plan
// ranks the same query twice (under the session's floor, then under search's for its index).
interface QueryMatch {
  relevance: Float64Array;
  covered: Float64Array;
  termCounts: Int32Array;
  /** The entries holding a query term, in the order they were first met. */
  matchedPositions: number[];
  /** The weight of a term no entry holds (BM25's idf). */
  rarest: number;
  queryWeight: number;
  scored: Array<{ term: string; weight: number; idf: number; postings: readonly number[] }>;
}

function matchQuery(documents: number, terms: ReadonlyMap<string, number>, index: AnyRelevanceIndex, saturation: number): QueryMatch {
  const last = LAST_MATCH.get(index);
  if (last !== undefined && last.documents === documents && last.saturation === saturation && sameTerms(last.terms, terms)) return last.match;
  const relevance = new Float64Array(documents);
  const covered = new Float64Array(documents);
  const termCounts = new Int32Array(documents);
  const matchedPositions: number[] = [];
  const rarest = Math.log(1 + (index.documents + 0.5) / 0.5);
  let queryWeight = 0;
  const scored: QueryMatch["scored"] = [];
  for (const [term, weight] of terms) {
    const postings = termPostings(index, term);
    if (postings.length === 0) {
      queryWeight += weight * rarest;
      continue;
    }
    const holding = postings.length / 2;
    const idf = Math.log(1 + (index.documents - holding + 0.5) / (holding + 0.5));
    queryWeight += weight * idf;
    scored.push({ term, weight, idf, postings });
    // What the loop can take from outside it is taken there: in a new process it runs as the
    // interpreter runs it, each step at a cost (at 50,000 entries, some 40,000 postings: 8 → 6 ms).
    const termWeight = weight * idf;
    const lifted = saturation + 1;
    const length = postings.length;
    for (let at = 0; at < length; at += 2) {
      const position = postings[at]!;
      const count = postings[at + 1]!;
      relevance[position]! += termWeight * ((count * lifted) / (count + saturation));
      covered[position]! += termWeight;
      if (termCounts[position]!++ === 0) matchedPositions.push(position);
    }
  }
  const match = { relevance, covered, termCounts, matchedPositions, rarest, queryWeight, scored };
  LAST_MATCH.set(index, { documents, saturation, terms, match });
  return match;
}
const LAST_MATCH = new WeakMap<AnyRelevanceIndex, { documents: number; saturation: number; terms: ReadonlyMap<string, number>; match: QueryMatch }>();

// Where the entry at `position` is in `postings` (position, count, position, …; positions ascending), or -1.
function postingAt(postings: readonly number[], position: number): number {
  const at = lowerBound(postings, position, 2) * 2;
  return at < postings.length && postings[at] === position ? at : -1;
}

// How many of `values`' items (every `stride`-th number from the first; ascending) are below
// `value`: where it is, or would be, among them. By halving.
function lowerBound(values: ArrayLike<number>, value: number, stride = 1): number {
  let low = 0;
  let high = Math.floor(values.length / stride);
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle * stride]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sameTerms(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  if (a.size !== b.size) return false;
  // In the same order too: relevance sums the terms in their order.
  const other = b.entries();
  for (const [term, weight] of a) {
    const [otherTerm, otherWeight] = other.next().value as [string, number];
    if (term !== otherTerm || weight !== otherWeight) return false;
  }
  return true;
}

function prominenceOf(observationCount: number, confidence: Confidence, recency: number): number {
  const observations = Math.min(1, Math.log(Math.max(1, observationCount)) / Math.log(10));
  return 0.6 * observations + 0.25 * CONFIDENCE_SCORE[confidence] + 0.15 * recency;
}

// The facts of `entries` read from the entries themselves.
function entryFacts(entries: EntryList): RankingFacts {
  return {
    observationCount: (position) => entries.at(position)!.observationCount,
    confidence: (position) => entries.at(position)!.confidence,
    contentHash: (position) => entries.at(position)!.contentHash,
  };
}

function feedbackFactorOf(feedback: EntryFeedback | undefined): number {
  if (feedback === undefined) return 1;
  const votes = feedback.helpful + feedback.unhelpful;
  if (votes === 0) return 1;
  return 1 + FEEDBACK_RANGE * ((feedback.helpful - feedback.unhelpful) / (votes + FEEDBACK_PRIOR));
}
