import type { Entry } from "@iflow-memory/parser";
import { validNumbers, type PackedEntryTerms } from "./packed-terms.js";
import { tokenizeText } from "./tokenize-text.js";

/** How much a term counts in each field of an entry, and how much a long field is discounted (BM25's b). */
export interface IndexWeights {
  name: number;
  description: number;
  metadata: number;
  /** 0: a field's length does not matter; 1: term counts fully normalised by it. */
  lengthNormalization: number;
}

export const DEFAULT_INDEX_WEIGHTS: IndexWeights = { name: 1.5, description: 1, metadata: 0.6, lengthNormalization: 0.75 };

/**
 * A full-text index of entries, plain JSON so that it can be cached: for each term, the entries
 * holding it (by their position in the list the index was built from) with the term's weighted,
 * length-normalised count over name, description and metadata (BM25F's pseudo-frequency).
 * Each term's postings are one compact string, decoded only when a query asks for the term
 * (`termPostings`): a cached index of 50,000 entries is read without building millions of numbers.
 */
export interface RelevanceIndex {
  version: 2;
  documents: number;
  /** term → "position:count,position:count,…" in base 36, counts in hundredths. Read with `termPostings`. */
  postings: Record<string, string>;
}

/**
 * A `RelevanceIndex` kept elsewhere and read a term at a time (from a cache file): `terms` are
 * its terms, `read(term)` gives one's postings text as the built index holds it. A query over
 * 50,000 entries then reads its own terms' postings, not every term's.
 */
export interface RelevanceIndexReader {
  version: 2;
  documents: number;
  /** How many distinct terms it holds. */
  vocabulary: number;
  has(term: string): boolean;
  terms(): Iterable<string>;
  /** The postings text of a term it holds. */
  read(term: string): string;
  /** Readies the postings of many terms at once (a query's), where reading them one by one would cost more. */
  prefetch?(terms: Iterable<string>): void;
  /** A term's postings as `termPostings` gives them, where the reader holds them as numbers: no text made to be decoded. */
  decodedPostings?(term: string): readonly number[];
}

/** An index as built (`buildRelevanceIndex`), or read a term at a time. */
export type AnyRelevanceIndex = RelevanceIndex | RelevanceIndexReader;

/** Whether an entry of the index holds `term` (never for names of Object.prototype). */
export function indexHasTerm(index: AnyRelevanceIndex, term: string): boolean {
  return "read" in index ? index.has(term) : Object.hasOwn(index.postings, term);
}

/** How many distinct terms the index holds. */
export function indexVocabulary(index: AnyRelevanceIndex): number {
  return "read" in index ? index.vocabulary : Object.keys(index.postings).length;
}

/**
 * The index's terms with their postings text, in no set order: what a cache keeps of it.
 *
 * @example
 * for (const [term, text] of indexTerms(index)) write(term, text);
 */
export function* indexTerms(index: AnyRelevanceIndex): Generator<[string, string]> {
  if ("read" in index) for (const term of index.terms()) yield [term, index.read(term)];
  else for (const term in index.postings) yield [term, index.postings[term]!];
}

// Bookkeeping lines say when and where an entry was seen, not what it is about: "Feature #018"
// would otherwise match every query that names a number or a feature.
const BOOKKEEPING = /^\s*-\s*(?:source|sources|last observed|observation count|observed in|confidence|content-hash|contested with|tags)\s*:.*$/gim;

/**
 * The text of an entry's metadata that says something about the learning (`Instead:`, `Cost:`,
 * `Example:` and free lines), without its bookkeeping (source, counts, dates, hash, tags).
 *
 * @example
 * metadataTopicText(entry); // "- Instead: Retry only idempotent methods …"
 */
export function metadataTopicText(entry: Pick<Entry, "metadataText">): string {
  return entry.metadataText.replace(BOOKKEEPING, "");
}

/** `tokenizeText` of an entry's name, description and metadata's topic text (`metadataTopicText`): what the index reads of it. */
export type EntryFieldTerms = readonly [name: readonly string[], description: readonly string[], metadata: readonly string[]];

/**
 * `tokenizeText` of an entry's three fields, as `buildRelevanceIndex` reads them.
 *
 * @example
 * entryFieldTerms(entry); // [["retri", "idempot"], ["retri", "onli", …], ["instead", …]]
 */
export function entryFieldTerms(entry: Pick<Entry, "name" | "description" | "metadataText">): EntryFieldTerms {
  return [tokenizeText(entry.name), tokenizeText(entry.description), tokenizeText(metadataTopicText(entry))];
}

/**
 * An entry's `entryFieldTerms` as a file's cache keeps them: `numbers` has a list per field, of
 * the positions of its terms in `vocabulary`. All the entries of a file share one vocabulary, so
 * that an index built from them looks each term up once per file, not once per word, and a cache
 * read gives the numbers as JSON gives them, with no string per word (`buildRelevanceIndex`).
 */
export interface NumberedTerms {
  vocabulary: readonly string[];
  numbers: readonly (readonly number[])[];
}

/** What an index may be given of an entry's terms instead of tokenizing it: its terms, numbered (`NumberedTerms`), or packed with its file's (`PackedEntryTerms`). */
export type KnownTerms = EntryFieldTerms | NumberedTerms | PackedEntryTerms;

/**
 * `terms` (an entry's `entryFieldTerms`) numbered in `vocabulary`, to which the terms it lacks are
 * added (so that the vocabulary only grows, and what was numbered with it stays valid);
 * `positions` is the vocabulary's index, kept with it.
 *
 * @example
 * const vocabulary: string[] = []; const positions = new Map<string, number>();
 * numberTerms([["retri"], ["retri", "call"], []], vocabulary, positions); // [[0], [0, 1], []]
 */
export function numberTerms(terms: EntryFieldTerms, vocabulary: string[], positions: Map<string, number>): number[][] {
  // Indexed loops (run once per entry of a file read anew, mostly by the interpreter).
  const numbered: number[][] = [];
  for (const words of terms) {
    const numbers = new Array<number>(words.length);
    for (let at = 0; at < words.length; at++) {
      const term = words[at]!;
      let position = positions.get(term);
      if (position === undefined) {
        position = vocabulary.length;
        vocabulary.push(term);
        positions.set(term, position);
      }
      numbers[at] = position;
    }
    numbered.push(numbers);
  }
  return numbered;
}

/**
 * The terms `NumberedTerms` (or an entry's `PackedEntryTerms`) stand for, per field; null when
 * they are not three lists of positions their vocabulary has (a damaged cache), or not an entry
 * of their pack.
 *
 * @example
 * numberedFieldTerms({ vocabulary: ["retri", "call"], numbers: [[0], [0, 1], []] }); // [["retri"], ["retri", "call"], []]
 */
export function numberedFieldTerms(terms: NumberedTerms | PackedEntryTerms): EntryFieldTerms | null {
  if ("packed" in terms) {
    const { packed, at } = terms;
    const numbers = packed.holds(at) ? packed.numbersAt(at) : null;
    return numbers === null ? null : numberedFieldTerms({ vocabulary: packed.vocabulary, numbers });
  }
  const { vocabulary, numbers } = terms;
  if (!validNumbers(numbers, vocabulary.length)) return null;
  return numbers.map((field) => field.map((at) => vocabulary[at]!)) as unknown as EntryFieldTerms;
}

/**
 * Builds the index of `entries` (the positions in postings are indexes into this list).
 * `known` gives the terms of entries tokenized before (kept with a file's entries: `entryFieldTerms`
 * of that very entry object, its `NumberedTerms` or its `PackedEntryTerms`), so that they are not
 * tokenized again; an entry it lacks (or whose numbered terms name a position their vocabulary
 * lacks) is tokenized here.
 *
 * @example
 * const index = buildRelevanceIndex(entries);
 * JSON.parse(JSON.stringify(index)); // the same index: it can be cached
 */
export function buildRelevanceIndex<T extends Pick<Entry, "name" | "description" | "metadataText">>(
  entries: readonly T[],
  weights: IndexWeights = DEFAULT_INDEX_WEIGHTS,
  known?: ReadonlyMap<T, KnownTerms>,
): RelevanceIndex {
  // First every entry's words, as the numbers of their terms (numbered as first met) in one
  // array, with where each entry's fields start: a term of a numbered vocabulary is looked up once
  // per vocabulary, a word read from a kept entry is a number, never a string.
  const numbers = new Map<string, number>();
  const terms: string[] = [];
  const numberOf = (term: string): number => {
    let number = numbers.get(term);
    if (number === undefined) {
      number = terms.length;
      numbers.set(term, number);
      terms.push(term);
    }
    return number;
  };
  const ofVocabulary = new Map<readonly string[], Int32Array>();
  let words = new Int32Array(1 << 16);
  let used = 0;
  const starts = new Int32Array(entries.length * 3 + 1);
  const push = (number: number): void => {
    if (used === words.length) words = grown(words);
    words[used++] = number;
  };
  // A numbered entry's words; false (none of them taken) when its numbers are not three lists of
  // positions its vocabulary has. Checked as they are taken: a check of its own, per number, would
  // cost a new process more than the words themselves.
  const mappedOf = (vocabulary: readonly string[]): Int32Array => {
    let mapped = ofVocabulary.get(vocabulary);
    if (mapped === undefined) {
      mapped = new Int32Array(vocabulary.length).fill(-1);
      ofVocabulary.set(vocabulary, mapped);
    }
    return mapped;
  };
  function pushNumbered({ vocabulary, numbers }: NumberedTerms, position: number): boolean {
    if (!Array.isArray(numbers) || numbers.length !== 3) return false;
    const mapped = mappedOf(vocabulary);
    // The positions first (a typed array has no element at one that is not a whole number in
    // its range), then, all found, the terms' numbers in their place: nothing numbered before.
    const from = used;
    for (let field = 0; field < 3; field++) {
      const list = numbers[field];
      if (!Array.isArray(list)) {
        used = from;
        return false;
      }
      starts[position * 3 + field] = used;
      for (let next = 0; next < list.length; next++) {
        const at = list[next];
        if (typeof at !== "number" || mapped[at] === undefined) {
          used = from;
          return false;
        }
        push(at);
      }
    }
    for (let word = from; word < used; word++) {
      const at = words[word]!;
      let number = mapped[at]!;
      if (number < 0) number = mapped[at] = numberOf(vocabulary[at]!);
      words[word] = number;
    }
    return true;
  }

  // A packed entry's words: false (none of them taken) when it is not one of its pack's, or a
  // word is past its vocabulary (one damaged where it was kept).
  function pushPacked({ packed, at }: PackedEntryTerms, position: number): boolean {
    if (!packed.holds(at)) return false;
    const mapped = mappedOf(packed.vocabulary);
    const { words: packedWords, starts: packedStarts } = packed;
    const from = used;
    for (let field = 0; field < 3; field++) {
      starts[position * 3 + field] = used;
      for (let word = packedStarts[at * 3 + field]!; word < packedStarts[at * 3 + field + 1]!; word++) {
        const term = packedWords[word]!;
        let number = mapped[term];
        if (number === undefined) {
          used = from;
          return false;
        }
        if (number < 0) number = mapped[term] = numberOf(packed.vocabulary[term]!);
        push(number);
      }
    }
    return true;
  }

  entries.forEach((entry, position) => {
    const given = known?.get(entry);
    if (given !== undefined && "packed" in given && pushPacked(given, position)) return;
    if (given !== undefined && "numbers" in given && pushNumbered(given, position)) return;
    const document = given !== undefined && "length" in given ? given : entryFieldTerms(entry);
    for (let field = 0; field < 3; field++) {
      starts[position * 3 + field] = used;
      for (const term of document[field]!) push(numberOf(term));
    }
  });
  starts[entries.length * 3] = used;
  const lengths = new Uint32Array(entries.length * 3);
  for (let at = 0; at < lengths.length; at++) lengths[at] = starts[at + 1]! - starts[at]!;
  const wordWeights = fieldWordWeights(lengths, entries.length, weights);

  // An entry's weighted counts are summed in `counts` by number (its terms listed in `met` in the
  // order they come, as a per-entry Map would keep them; `metBy` holds the position + 1 of the
  // last entry that met each), and its postings recorded as numbers — the term's, the entry's
  // position and the count in hundredths, in typed arrays: no Map, object or string per entry
  // and term while every entry is walked. Each term's postings text is made afterwards, from
  // them, in one join: the strings of its postings die at once, and what a walk over thousands of
  // entries keeps alive (which every garbage collection during it copies) is numbers alone.
  const counts = new Float64Array(terms.length);
  const metBy = new Int32Array(terms.length);
  const met: number[] = [];
  // At most one posting per word.
  const postingTerm = new Int32Array(used);
  const postingEntry = new Int32Array(used);
  const postingCount = new Int32Array(used);
  const perTerm = new Int32Array(terms.length + 1);
  let postingsMade = 0;
  for (let position = 0; position < entries.length; position++) {
    for (let field = 0; field < 3; field++) {
      const from = starts[position * 3 + field]!;
      const to = starts[position * 3 + field + 1]!;
      const weight = wordWeights[position * 3 + field]!;
      for (let at = from; at < to; at++) {
        const number = words[at]!;
        if (metBy[number] !== position + 1) {
          metBy[number] = position + 1;
          met.push(number);
        }
        counts[number]! += weight;
      }
    }
    for (const number of met) {
      postingTerm[postingsMade] = number;
      postingEntry[postingsMade] = position;
      postingCount[postingsMade++] = Math.max(1, Math.round(counts[number]! * 100));
      perTerm[number + 1]!++;
      counts[number] = 0;
    }
    met.length = 0;
  }
  // The postings by term, in the order of the entries (a counting sort: `perTerm` becomes where
  // each term's postings start).
  for (let number = 0; number < terms.length; number++) perTerm[number + 1]! += perTerm[number]!;
  const byTerm = new Int32Array(postingsMade);
  const next = perTerm.slice(0, terms.length);
  for (let made = 0; made < postingsMade; made++) byTerm[next[postingTerm[made]!]!++] = made;
  const postings = Object.create(null) as Record<string, string>;
  const texts: string[] = [];
  // Positions and counts in base 36, each made once (counts repeat: most are a few hundredths).
  const keys = Array.from({ length: entries.length }, (_, position) => `${position.toString(36)}:`);
  const countTexts: string[] = [];
  terms.forEach((term, number) => {
    for (let at = perTerm[number]!; at < perTerm[number + 1]!; at++) {
      const made = byTerm[at]!;
      const count = postingCount[made]!;
      texts.push(keys[postingEntry[made]!]! + (countTexts[count] ??= count.toString(36)));
    }
    postings[term] = texts.join(",");
    texts.length = 0;
  });
  return { version: 2, documents: entries.length, postings };
}

/**
 * What each word of an entry's field adds to its term's count (BM25F's pseudo-frequency): the
 * field's weight, normalised by the field's length against its average over all `documents`
 * entries. `lengths[entry * 3 + field]` is a field's number of words; the weights are laid out
 * the same. The one place the index's weights are worked out: the built index and the lazy one
 * (`lazyRelevanceIndex`) sum the same numbers.
 *
 * @example
 * fieldWordWeights([2, 10, 0], 1, DEFAULT_INDEX_WEIGHTS); // [1.5, 1, 0.6]
 */
export function fieldWordWeights(lengths: ArrayLike<number>, documents: number, weights: IndexWeights): Float64Array {
  const totals = [0, 0, 0];
  for (let at = 0; at < documents * 3; at++) totals[at % 3]! += lengths[at]!;
  const weightOf = wordWeights(totals, documents, weights);
  const result = new Float64Array(documents * 3);
  for (let at = 0; at < documents * 3; at++) result[at] = weightOf(at % 3, lengths[at]!);
  return result;
}

/**
 * What each word of a field of `length` words adds (`fieldWordWeights`), given every field's
 * total words over all `documents` entries: for the few entries a query's terms are in, where
 * working out every entry's would cost more.
 *
 * @example
 * wordWeights([2, 10, 0], 1, DEFAULT_INDEX_WEIGHTS)(0, 2); // 1.5
 */
export function wordWeights(totals: readonly number[], documents: number, weights: IndexWeights): (field: number, length: number) => number {
  const averages = totals.map((total) => Math.max(1, total / Math.max(1, documents)));
  const fieldWeights = [weights.name, weights.description, weights.metadata];
  const b = weights.lengthNormalization;
  return (field, length) => fieldWeights[field]! / (1 - b + (b * length) / averages[field]!);
}

/**
 * A term's count in an entry as its postings hold it, in hundredths (at least 1): the sum
 * `buildRelevanceIndex` makes — each field's word weight (`fieldWordWeights`, at `weights[entry ×
 * 3 + field]`) added once per word of the term there, field by field — from how many words of it
 * each field holds (`counts[from]`, `[from + 1]`, `[from + 2]`). The one place the sum is made for
 * an index worked out in parts (`lazyRelevanceIndex`, an index grown by a few entries).
 *
 * @example
 * weightedCount(fieldWordWeights([2, 10, 0], 1, DEFAULT_INDEX_WEIGHTS), 0, [1, 2, 0], 0); // 350
 */
export function weightedCount(weights: ArrayLike<number>, entry: number, counts: ArrayLike<number>, from: number): number {
  let sum = 0;
  for (let field = 0; field < 3; field++) {
    const weight = weights[entry * 3 + field]!;
    for (let count = counts[from + field]!; count > 0; count--) sum += weight;
  }
  return Math.max(1, Math.round(sum * 100));
}

function grown<T extends Float64Array | Int32Array>(array: T): T {
  const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
  larger.set(array);
  return larger;
}

/**
 * The entries holding `term` and its weighted count in each: [position, count, position, count, …],
 * positions ascending (every index is built in the entries' order); [] for a term no entry holds
 * (names of Object.prototype included).
 *
 * @example
 * termPostings(buildRelevanceIndex(entries), "retri"); // [3, 1.42, 17, 0.88]
 */
export function termPostings(index: AnyRelevanceIndex, term: string): readonly number[] {
  if (!indexHasTerm(index, term)) return [];
  if ("read" in index && index.decodedPostings !== undefined) return index.decodedPostings(term);
  // Decoded once per index and term: an index kept for many queries (an MCP server's) decodes a
  // common term's long list once.
  let decoded = DECODED.get(index);
  if (decoded === undefined) {
    decoded = new Map();
    DECODED.set(index, decoded);
  }
  const known = decoded.get(term);
  if (known !== undefined) return known;
  const result = postingNumbers("read" in index ? index.read(term) : index.postings[term]!);
  for (let at = 1; at < result.length; at += 2) result[at] = result[at]! / 100;
  decoded.set(term, result);
  return result;
}

/**
 * A term's postings text (as `RelevanceIndex.postings` holds it) as numbers: [position, count in
 * hundredths, position, …]. `postingText` writes them back.
 *
 * @example
 * postingNumbers("3:8e,h:2g"); // [3, 302, 17, 88]
 */
export function postingNumbers(text: string): number[] {
  const numbers: number[] = [];
  for (const posting of text.split(",")) {
    const colon = posting.indexOf(":");
    numbers.push(Number.parseInt(posting.slice(0, colon), 36), Number.parseInt(posting.slice(colon + 1), 36));
  }
  return numbers;
}

/**
 * Postings as numbers (`postingNumbers`' [position, count in hundredths, …]) as the text a
 * `RelevanceIndex` holds.
 *
 * @example
 * postingText([3, 302, 17, 88]); // "3:8e,h:2g"
 */
export function postingText(numbers: ArrayLike<number>): string {
  const texts: string[] = [];
  for (let at = 0; at < numbers.length; at += 2) texts.push(`${numbers[at]!.toString(36)}:${numbers[at + 1]!.toString(36)}`);
  return texts.join(",");
}

const DECODED = new WeakMap<AnyRelevanceIndex, Map<string, readonly number[]>>();
