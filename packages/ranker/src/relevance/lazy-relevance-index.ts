import type { Entry } from "@iflow-memory/parser";
import {
  buildRelevanceIndex,
  DEFAULT_INDEX_WEIGHTS,
  entryFieldTerms,
  fieldWordWeights,
  numberTerms,
  type EntryFieldTerms,
  type IndexWeights,
  type NumberedTerms,
  type RelevanceIndex,
  type RelevanceIndexReader,
} from "./relevance-index.js";

/**
 * The index `buildRelevanceIndex` builds of `entries`, worked out as far as it is asked: its
 * vocabulary (which terms some entry holds) when a query's known share is asked, and the postings
 * of a query's terms when it is ranked (`prefetch`: all of them in one walk over the entries'
 * words). Every term's postings are made only when they all are asked for (`terms()`, as a cache
 * writer does). A start after an edit ranks a query over every entry without building every
 * term's postings: at 5,000 entries the index holds some 3,000 terms, a session's query 20 to 40.
 * What it gives is what the built index gives, text for text.
 *
 * @example
 * const index = lazyRelevanceIndex(candidates, DEFAULT_INDEX_WEIGHTS, known);
 * termPostings(index, "retri"); // as termPostings(buildRelevanceIndex(candidates, …), "retri")
 */
export function lazyRelevanceIndex<T extends Pick<Entry, "name" | "description" | "metadataText">>(
  entries: readonly T[],
  weights: IndexWeights = DEFAULT_INDEX_WEIGHTS,
  known?: ReadonlyMap<T, EntryFieldTerms | NumberedTerms>,
): LazyRelevanceIndex {
  return new LazyRelevanceIndex(entries, weights, known);
}

/** The index of `lazyRelevanceIndex`: a `RelevanceIndexReader` whose parts are worked out when first read. */
export class LazyRelevanceIndex implements RelevanceIndexReader {
  readonly version = 2;
  readonly documents: number;
  private wordsMade: Words | undefined;
  private heldTerms: Set<unknown> | undefined;
  private built: RelevanceIndex | undefined;
  private readonly postings = new Map<string, string>();

  constructor(
    private readonly entries: readonly Pick<Entry, "name" | "description" | "metadataText">[],
    private readonly weights: IndexWeights,
    private readonly known: ReadonlyMap<Pick<Entry, "name" | "description" | "metadataText">, EntryFieldTerms | NumberedTerms> | undefined,
  ) {
    this.documents = entries.length;
  }

  get vocabulary(): number {
    return this.built === undefined ? this.held().size : Object.keys(this.built.postings).length;
  }

  has(term: string): boolean {
    return this.built === undefined ? this.held().has(term) : Object.hasOwn(this.built.postings, term);
  }

  terms(): Iterable<string> {
    return Object.keys(this.whole().postings);
  }

  read(term: string): string {
    if (this.built !== undefined) return this.built.postings[term]!;
    if (!this.postings.has(term)) this.prefetch([term]);
    return this.postings.get(term)!;
  }

  /**
   * Works out the postings of `terms` (those it has not yet) in one walk over the entries' words:
   * asked before anything else (a query's terms, before its known share), the walk that finds
   * which terms some entry holds.
   */
  prefetch(terms: Iterable<string>): void {
    if (this.built !== undefined) return;
    const slots = new Map<unknown, number>();
    for (const term of terms) {
      if (!slots.has(term) && !this.postings.has(term) && (this.wordsMade === undefined || this.held().has(term))) slots.set(term, slots.size);
    }
    if (slots.size === 0) return;
    const hits = new Hits(slots.size);
    if (this.wordsMade === undefined) this.words(slots, hits);
    else this.count(slots, hits);
    // Each count made the sum `buildRelevanceIndex` makes: a field's weight added once per word,
    // field by field (its words of one term are added in its order, and all weigh the same).
    const { weights } = this.wordsMade!;
    const texts: string[][] = Array.from({ length: slots.size }, () => []);
    for (let hit = 0; hit < hits.entry.length; hit++) {
      const position = hits.entry[hit]!;
      let sum = 0;
      for (let field = 0; field < 3; field++) {
        const weight = weights[position * 3 + field]!;
        for (let count = hits.counts[hit * 3 + field]!; count > 0; count--) sum += weight;
      }
      texts[hits.slot[hit]!]!.push(`${position.toString(36)}:${Math.max(1, Math.round(sum * 100)).toString(36)}`);
    }
    for (const [term, slot] of slots) if (texts[slot]!.length > 0) this.postings.set(term as string, texts[slot]!.join(","));
  }

  /** The index built whole (`buildRelevanceIndex`), once: what a cache of every term's postings is written from. */
  whole(): RelevanceIndex {
    return (this.built ??= buildRelevanceIndex(this.entries, this.weights, this.known));
  }

  /** Its JSON is the built index's. */
  toJSON(): RelevanceIndex {
    return this.whole();
  }

  // The terms some entry holds.
  private held(): Set<unknown> {
    if (this.heldTerms !== undefined) return this.heldTerms;
    const held = new Set<unknown>();
    for (const [terms, marks] of this.words().used) for (let at = 0; at < terms.length; at++) if (marks[at] === 1) held.add(terms[at]);
    return (this.heldTerms = held);
  }

  // The words of the terms in `slots` counted per entry and field into `hits`, the words made.
  private count(slots: ReadonlyMap<unknown, number>, hits: Hits): void {
    const { vocabulary, numbers, used } = this.words();
    const masks = new Map<readonly unknown[], Int32Array>();
    for (const terms of used.keys()) masks.set(terms, maskOf(terms, slots));
    for (let position = 0; position < this.documents; position++) hits.countNumbers(position, numbers[position]!, masks.get(vocabulary[position]!)!, null);
  }

  // Every entry's words as positions of a vocabulary, the positions some entry uses, and each
  // field's weight after BM25F's length normalisation, as `buildRelevanceIndex` works them out;
  // with `slots` and `hits`, the words of those terms counted in the same walk.
  private words(slots?: ReadonlyMap<unknown, number>, hits?: Hits): Words {
    if (this.wordsMade !== undefined) return this.wordsMade;
    const { documents } = this;
    const vocabulary: (readonly unknown[])[] = [];
    const numbers: (readonly (readonly number[])[])[] = [];
    const used = new Map<readonly unknown[], Uint8Array>();
    const masks = new Map<readonly unknown[], Int32Array>();
    // The terms of entries that come tokenized (or whose numbers their vocabulary lacks), numbered here.
    const own: string[] = [];
    const positions = new Map<string, number>();
    // Vocabularies marked by an entry whose numbers turned out damaged, marked again without it
    // (one no entry kept then holds nothing).
    const remark = new Set<readonly unknown[]>();
    for (let position = 0; position < documents; position++) {
      const entry = this.entries[position]!;
      const given = this.known?.get(entry);
      if (given !== undefined && "numbers" in given) {
        let marks = used.get(given.vocabulary);
        if (marks === undefined) used.set(given.vocabulary, (marks = new Uint8Array(given.vocabulary.length)));
        let mask = masks.get(given.vocabulary);
        if (mask === undefined && slots !== undefined) masks.set(given.vocabulary, (mask = maskOf(given.vocabulary, slots)));
        // Checked as they are marked and counted, in one walk: a check of its own would walk them twice.
        if (hits === undefined ? markNumbers(given.numbers, marks) : hits.countNumbers(position, given.numbers, mask!, marks)) {
          vocabulary.push(given.vocabulary);
          numbers.push(given.numbers);
          continue;
        }
        remark.add(given.vocabulary);
      }
      const terms = given !== undefined && !("numbers" in given) ? given : entryFieldTerms(entry);
      vocabulary.push(own);
      numbers.push(numberTerms(terms, own, positions));
      if (hits !== undefined) hits.countTerms(position, terms, slots!);
    }
    if (own.length > 0) used.set(own, new Uint8Array(own.length).fill(1));
    for (const terms of remark) {
      const marks = new Uint8Array(terms.length);
      used.set(terms, marks);
      for (let position = 0; position < documents; position++) if (vocabulary[position] === terms) markNumbers(numbers[position]!, marks);
    }
    const weights = fieldWordWeights((at) => numbers[Math.floor(at / 3)]![at % 3]!.length, documents, this.weights);
    return (this.wordsMade = { vocabulary, numbers, weights, used });
  }
}

/**
 * Per entry and term asked for (its slot), how many of its words in each field are the term:
 * the entries in order, each with the slots it holds.
 */
class Hits {
  readonly entry: number[] = [];
  readonly slot: number[] = [];
  /** Three per hit: the counts in name, description and metadata. */
  readonly counts: number[] = [];
  // Per slot, the position + 1 of the last entry that held it, and that hit.
  private readonly metBy: Int32Array;
  private readonly hitOf: Int32Array;

  constructor(slots: number) {
    this.metBy = new Int32Array(slots);
    this.hitOf = new Int32Array(slots);
  }

  /**
   * Counts an entry's numbered words whose slot `mask` gives (and marks every word's position in
   * `marks`, when given); false, the entry's counts taken back, when its numbers are not three
   * lists of positions of the vocabulary.
   */
  countNumbers(position: number, numbers: unknown, mask: Int32Array, marks: Uint8Array | null): boolean {
    if (!Array.isArray(numbers) || numbers.length !== 3) return false;
    const from = this.entry.length;
    for (let field = 0; field < 3; field++) {
      const list: unknown = numbers[field];
      if (!Array.isArray(list)) return this.takeBack(from);
      for (let next = 0; next < list.length; next++) {
        const at: unknown = list[next];
        // A typed array has no element at a position that is not a whole number in its range.
        if (typeof at !== "number" || mask[at] === undefined) return this.takeBack(from);
        if (marks !== null) marks[at] = 1;
        const slot = mask[at]!;
        if (slot >= 0) this.add(position, slot, field);
      }
    }
    return true;
  }

  /** Counts an entry's words given as terms. */
  countTerms(position: number, terms: EntryFieldTerms, slots: ReadonlyMap<unknown, number>): void {
    for (let field = 0; field < 3; field++) {
      for (const term of terms[field]!) {
        const slot = slots.get(term);
        if (slot !== undefined) this.add(position, slot, field);
      }
    }
  }

  private add(position: number, slot: number, field: number): void {
    if (this.metBy[slot] !== position + 1) {
      this.metBy[slot] = position + 1;
      this.hitOf[slot] = this.entry.length;
      this.entry.push(position);
      this.slot.push(slot);
      this.counts.push(0, 0, 0);
    }
    this.counts[this.hitOf[slot]! * 3 + field]!++;
  }

  private takeBack(from: number): false {
    for (let hit = from; hit < this.entry.length; hit++) this.metBy[this.slot[hit]!] = 0;
    this.entry.length = from;
    this.slot.length = from;
    this.counts.length = from * 3;
    return false;
  }
}

// Per position of `vocabulary`, the slot of its term among `slots` (-1: none).
function maskOf(vocabulary: readonly unknown[], slots: ReadonlyMap<unknown, number>): Int32Array {
  const mask = new Int32Array(vocabulary.length);
  for (let at = 0; at < vocabulary.length; at++) mask[at] = slots.get(vocabulary[at]) ?? -1;
  return mask;
}

interface Words {
  /** Per entry, the vocabulary its numbers are positions of. */
  vocabulary: (readonly unknown[])[];
  /** Per entry, its three fields' words as positions of its vocabulary. */
  numbers: (readonly (readonly number[])[])[];
  /** Per entry and field (entry × 3 + field), the weight each of its words adds. */
  weights: Float64Array;
  /** Per vocabulary, 1 at each position some entry uses. */
  used: Map<readonly unknown[], Uint8Array>;
}

// Marks the positions `numbers` holds, when they are three lists of whole numbers, each a position
// of the vocabulary `marks` stands for (as `buildRelevanceIndex` takes them: else the entry's text
// is tokenized); false, with some marked perhaps, when they are not.
function markNumbers(numbers: unknown, marks: Uint8Array): boolean {
  if (!Array.isArray(numbers) || numbers.length !== 3) return false;
  for (const list of numbers as unknown[]) {
    if (!Array.isArray(list)) return false;
    for (let next = 0; next < list.length; next++) {
      const at: unknown = list[next];
      // A typed array has no element at a position that is not a whole number in its range.
      if (typeof at !== "number" || marks[at] === undefined) return false;
      marks[at] = 1;
    }
  }
  return true;
}
