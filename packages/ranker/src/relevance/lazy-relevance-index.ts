import type { Entry } from "@iflow-memory/parser";
import { PackedTerms, validNumbers } from "./packed-terms.js";
import {
  buildRelevanceIndex,
  DEFAULT_INDEX_WEIGHTS,
  entryFieldTerms,
  fieldWordWeights,
  numberTerms,
  weightedCount,
  postingText,
  termPostings,
  type IndexWeights,
  type KnownTerms,
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
  known?: ReadonlyMap<T, KnownTerms>,
): LazyRelevanceIndex {
  return new LazyRelevanceIndex(entries, weights, known);
}

/** The index of `lazyRelevanceIndex`: a `RelevanceIndexReader` whose parts are worked out when first read. */
export class LazyRelevanceIndex implements RelevanceIndexReader {
  readonly version = 2;
  readonly documents: number;
  private wordsMade: Words | undefined;
  private heldTerms: Set<string> | undefined;
  private built: RelevanceIndex | undefined;
  // Per term worked out, its postings: position, count in hundredths, position, … (as the text has them).
  private readonly postings = new Map<string, number[]>();
  private readonly decoded = new Map<string, readonly number[]>();

  constructor(
    private readonly entries: readonly Pick<Entry, "name" | "description" | "metadataText">[],
    private readonly weights: IndexWeights,
    private readonly known: ReadonlyMap<Pick<Entry, "name" | "description" | "metadataText">, KnownTerms> | undefined,
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
    return postingText(this.worked(term));
  }

  /** A term's postings as `termPostings` decodes them from `read`'s text (worked out as numbers, not made into text). */
  decodedPostings(term: string): readonly number[] {
    let decoded = this.decoded.get(term);
    if (decoded === undefined) {
      const postings = this.built === undefined ? this.worked(term) : null;
      if (postings === null) return termPostings(this.built!, term);
      decoded = postings.map((number, at) => (at % 2 === 0 ? number : number / 100));
      this.decoded.set(term, decoded);
    }
    return decoded;
  }

  // A term's postings, worked out (the term held by some entry).
  private worked(term: string): number[] {
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
      if (!slots.has(term) && !this.postings.has(term) && (this.heldTerms === undefined || this.heldTerms.has(term))) slots.set(term, slots.size);
    }
    if (slots.size === 0) return;
    const hits = new Hits(slots.size);
    const words = this.words();
    this.walk(words, slots, hits);
    // Each count made the sum `buildRelevanceIndex` makes (`weightedCount`).
    const { weights } = words;
    const postings: number[][] = Array.from({ length: slots.size }, () => []);
    for (let hit = 0; hit < hits.entry.length; hit++) {
      const position = hits.entry[hit]!;
      postings[hits.slot[hit]!]!.push(position, weightedCount(weights, position, hits.counts, hit * 3));
    }
    for (const [term, slot] of slots) if (postings[slot]!.length > 0) this.postings.set(term as string, postings[slot]!);
  }

  /** The index built whole (`buildRelevanceIndex`), once: what a cache of every term's postings is written from. */
  whole(): RelevanceIndex {
    return (this.built ??= buildRelevanceIndex(this.entries, this.weights, this.known));
  }

  /**
   * What its postings are summed from: every held term's words per entry and field (three bytes
   * per posting, in the postings' order) and every entry's field lengths (three per entry) — what
   * a ranking cache keeps so that the index of its entries with a few more appended is worked out
   * without the others' words (`extendSessionInjection`). Null when a field holds a term more
   * than 255 times (a byte's room).
   *
   * @example
   * const counts = index.fieldCounts(); // counts?.byTerm.get("retri") → Uint8Array [0, 1, 0, 1, 0, 0, …]
   */
  fieldCounts(): FieldCounts | null {
    const { packs, packOf, places, lengths } = this.words();
    const terms = [...this.held()];
    const slots = new Map<unknown, number>(terms.map((term, slot) => [term, slot]));
    const masks = packs.map((pack) => maskOf(pack.vocabulary, slots));
    // Each word of a held term, entry by entry and field by field: its slot, entry and field.
    const eachWord = (visit: (slot: number, position: number, field: number) => void) => {
      for (let position = 0; position < this.documents; position++) {
        const { words, starts } = packs[packOf[position]!]!;
        const mask = masks[packOf[position]!]!;
        const place = places[position]! * 3;
        for (let field = 0; field < 3; field++) {
          const to = starts[place + field + 1]!;
          for (let word = starts[place + field]!; word < to; word++) {
            const slot = mask[words[word]!]!;
            if (slot >= 0) visit(slot, position, field);
          }
        }
      }
    };
    // Two walks, into one array of bytes: first how many entries hold each term (where each
    // term's postings start), then each posting's words per field.
    const metBy = new Int32Array(terms.length);
    const starts = new Int32Array(terms.length + 1);
    eachWord((slot, position) => {
      if (metBy[slot] === position + 1) return;
      metBy[slot] = position + 1;
      starts[slot + 1]!++;
    });
    for (let slot = 0; slot < terms.length; slot++) starts[slot + 1]! += starts[slot]!;
    const counts = new Uint8Array(starts[terms.length]! * 3);
    const next = starts.slice(0, terms.length);
    const current = new Int32Array(terms.length);
    metBy.fill(0);
    let overflow = false;
    eachWord((slot, position, field) => {
      if (metBy[slot] !== position + 1) {
        metBy[slot] = position + 1;
        current[slot] = next[slot]!++;
      }
      const at = current[slot]! * 3 + field;
      if (counts[at] === 255) overflow = true;
      else counts[at]!++;
    });
    if (overflow) return null;
    return { lengths, byTerm: new Map(terms.map((term, slot) => [term, counts.subarray(starts[slot]! * 3, starts[slot + 1]! * 3)])) };
  }

  /** Its JSON is the built index's. */
  toJSON(): RelevanceIndex {
    return this.whole();
  }

  // The terms some entry holds.
  private held(): Set<string> {
    if (this.heldTerms === undefined) this.walk(this.words(), null, null);
    return this.heldTerms!;
  }

  // One walk over every entry's words: those of the terms in `slots` counted per entry and field
  // into `hits`, and, the first time, the terms some entry holds found (`heldTerms`).
  private walk({ packs, packOf, places }: Words, slots: ReadonlyMap<unknown, number> | null, hits: Hits | null): void {
    const marking = this.heldTerms === undefined;
    const marks = marking ? packs.map((pack) => new Uint8Array(pack.vocabulary.length)) : [];
    const masks = slots === null ? [] : packs.map((pack) => maskOf(pack.vocabulary, slots));
    for (let position = 0; position < this.documents; position++) {
      const pack = packOf[position]!;
      const { words, starts } = packs[pack]!;
      const mark = marks[pack];
      const mask = masks[pack];
      const place = places[position]! * 3;
      for (let field = 0; field < 3; field++) {
        const to = starts[place + field + 1]!;
        for (let word = starts[place + field]!; word < to; word++) {
          const at = words[word]!;
          if (mark !== undefined) mark[at] = 1;
          if (mask !== undefined && mask[at]! >= 0) hits!.add(position, mask[at]!, field);
        }
      }
    }
    if (!marking) return;
    const held = new Set<string>();
    packs.forEach(({ vocabulary }, pack) => {
      const mark = marks[pack]!;
      for (let at = 0; at < vocabulary.length; at++) if (mark[at] === 1) held.add(vocabulary[at]!);
    });
    this.heldTerms = held;
  }

  // Every entry's words, packed — as given (read from a file's cache), numbered with a
  // vocabulary (checked here: damaged numbers are tokenized instead), or tokenized and numbered
  // here — and each field's weight after BM25F's length normalisation, as `buildRelevanceIndex`
  // works them out.
  private words(): Words {
    if (this.wordsMade !== undefined) return this.wordsMade;
    const { documents } = this;
    const packs: PackedTerms[] = [];
    const packIndex = new Map<PackedTerms, number>();
    const packOf = new Int32Array(documents);
    const places = new Int32Array(documents);
    // Entries numbered in lists, by vocabulary; and those tokenized, numbered in `own`.
    const lists = new Map<readonly string[], { numbers: (readonly (readonly number[])[])[]; positions: number[] }>();
    const own: string[] = [];
    const ownPositions = new Map<string, number>();
    const owned: { numbers: (readonly (readonly number[])[])[]; positions: number[] } = { numbers: [], positions: [] };
    for (let position = 0; position < documents; position++) {
      const entry = this.entries[position]!;
      const given = this.known?.get(entry);
      if (given !== undefined && "packed" in given && given.packed.holds(given.at)) {
        let pack = packIndex.get(given.packed);
        if (pack === undefined) packIndex.set(given.packed, (pack = packs.push(given.packed) - 1));
        packOf[position] = pack;
        places[position] = given.at;
        continue;
      }
      if (given !== undefined && "numbers" in given && validNumbers(given.numbers, given.vocabulary.length)) {
        let group = lists.get(given.vocabulary);
        if (group === undefined) lists.set(given.vocabulary, (group = { numbers: [], positions: [] }));
        group.numbers.push(given.numbers);
        group.positions.push(position);
        continue;
      }
      owned.numbers.push(numberTerms(given !== undefined && "length" in given ? given : entryFieldTerms(entry), own, ownPositions));
      owned.positions.push(position);
    }
    for (const [vocabulary, group] of [...lists, [own, owned] as const]) {
      if (group.positions.length === 0) continue;
      const pack = packs.push(PackedTerms.pack(vocabulary, group.numbers)!) - 1;
      group.positions.forEach((position, at) => {
        packOf[position] = pack;
        places[position] = at;
      });
    }
    const lengths = new Uint32Array(documents * 3);
    for (let position = 0; position < documents; position++) {
      const { starts } = packs[packOf[position]!]!;
      const place = places[position]! * 3;
      for (let field = 0; field < 3; field++) lengths[position * 3 + field] = starts[place + field + 1]! - starts[place + field]!;
    }
    const weights = fieldWordWeights(lengths, documents, this.weights);
    return (this.wordsMade = { packs, packOf, places, lengths, weights });
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

  add(position: number, slot: number, field: number): void {
    if (this.metBy[slot] !== position + 1) {
      this.metBy[slot] = position + 1;
      this.hitOf[slot] = this.entry.length;
      this.entry.push(position);
      this.slot.push(slot);
      this.counts.push(0, 0, 0);
    }
    this.counts[this.hitOf[slot]! * 3 + field]!++;
  }
}

// Per position of `vocabulary`, the slot of its term among `slots` (-1: none).
function maskOf(vocabulary: readonly unknown[], slots: ReadonlyMap<unknown, number>): Int32Array {
  const mask = new Int32Array(vocabulary.length);
  for (let at = 0; at < vocabulary.length; at++) mask[at] = slots.get(vocabulary[at]) ?? -1;
  return mask;
}

interface Words {
  /** The packs the entries' words are in. */
  packs: PackedTerms[];
  /** Per entry, its pack (a position of `packs`) and its place there. */
  packOf: Int32Array;
  places: Int32Array;
  /** Per entry and field (entry × 3 + field), how many words it holds. */
  lengths: Uint32Array;
  /** Per entry and field (entry × 3 + field), the weight each of its words adds. */
  weights: Float64Array;
}

/** Every entry's field lengths and, per term, every posting's words per field (`LazyRelevanceIndex.fieldCounts`). */
export interface FieldCounts {
  lengths: Uint32Array;
  byTerm: Map<string, Uint8Array>;
}
