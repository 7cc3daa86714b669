/**
 * The numbered terms of a file's entries in two typed arrays, as a file's cache keeps them: entry
 * `at`'s field `f` (name, description, metadata) is `words` from `starts[at * 3 + f]` up to
 * `starts[at * 3 + f + 1]`, each word a position of `vocabulary`. Made only by `pack` (from lists,
 * checked) or `unpack` (from a cache's bytes, checked, or known to be the bytes a `pack` gave),
 * so every field is a range of `words`: reading a cache of thousands of entries builds no array
 * per entry and field. A word past the vocabulary can only come from a vocabulary damaged where
 * it was kept; what reads the words takes such a word for no term (the lazy index) or tokenizes
 * its entry (`numbersAt` gives null).
 */
export class PackedTerms {
  private constructor(
    readonly vocabulary: readonly string[],
    readonly words: Uint16Array | Uint32Array,
    readonly starts: Uint32Array,
  ) {}

  /** How many entries it holds. */
  get count(): number {
    return (this.starts.length - 1) / 3;
  }

  /** Whether `at` is one of its entries' places. */
  holds(at: number): boolean {
    return Number.isInteger(at) && at >= 0 && at < this.count;
  }

  /** Each of its entries' terms, in order (what an index is given for the entries it was packed from). */
  entryTerms(): PackedEntryTerms[] {
    return Array.from({ length: this.count }, (_, at) => ({ packed: this, at }));
  }

  /** Entry `at`'s three lists of positions (`NumberedTerms.numbers`); null when one is past the vocabulary. */
  numbersAt(at: number): number[][] | null {
    const numbers = [0, 1, 2].map((field) => Array.from(this.words.subarray(this.starts[at * 3 + field]!, this.starts[at * 3 + field + 1]!)));
    return validNumbers(numbers, this.vocabulary.length) ? numbers : null;
  }

  /**
   * `lists` (one per entry: three lists of positions, each a position of `vocabulary`) packed;
   * null when one is not (a damaged cache's).
   */
  static pack(vocabulary: readonly string[], lists: readonly (readonly (readonly number[])[])[]): PackedTerms | null {
    return new PackedTerms([], new Uint16Array(0), Uint32Array.of(0)).extend(0, vocabulary, lists);
  }

  /**
   * Its first `count` entries' terms, then `lists` (one per entry, as `pack` takes them), in
   * `vocabulary`: this one's grown (its terms first, as they are) — what `pack` gives for all of
   * them, without a list made of each entry kept: a file that grew by a learning is kept again at
   * the cost of the learning, not of the file. Null where `pack` gives null, and where `vocabulary`
   * does not begin with this one's or a word of those entries is past it (then `numbersAt` tells
   * which entries to tokenize again).
   */
  extend(count: number, vocabulary: readonly string[], lists: readonly (readonly (readonly number[])[])[]): PackedTerms | null {
    if (!Number.isInteger(count) || count < 0 || count > this.count || vocabulary.length < this.vocabulary.length) return null;
    for (let at = 0; at < this.vocabulary.length; at++) if (vocabulary[at] !== this.vocabulary[at]) return null;
    const kept = this.starts[count * 3]!;
    const terms = this.vocabulary.length;
    for (let at = 0; at < kept; at++) if (this.words[at]! >= terms) return null;
    let total = kept;
    for (const numbers of lists) {
      if (!validNumbers(numbers, vocabulary.length)) return null;
      total += numbers[0]!.length + numbers[1]!.length + numbers[2]!.length;
    }
    const words = vocabulary.length > 0xffff ? new Uint32Array(total) : new Uint16Array(total);
    const starts = new Uint32Array((count + lists.length) * 3 + 1);
    words.set(this.words.subarray(0, kept));
    starts.set(this.starts.subarray(0, count * 3));
    let used = kept;
    lists.forEach((numbers, index) => {
      const at = count + index;
      for (let field = 0; field < 3; field++) {
        starts[at * 3 + field] = used;
        words.set(numbers[field]!, used);
        used += numbers[field]!.length;
      }
    });
    starts[(count + lists.length) * 3] = used;
    return new PackedTerms(vocabulary, words, starts);
  }

  /** How many of its vocabulary's terms its entries hold. */
  termsUsed(): number {
    const used = new Uint8Array(this.vocabulary.length);
    let count = 0;
    for (let at = 0; at < this.words.length; at++) {
      const word = this.words[at]!;
      if (word < used.length && used[word] === 0) (used[word] = 1), count++;
    }
    return count;
  }

  /**
   * The packed terms of `count` entries that `packedBytes` gave (`bytes`, in this machine's byte
   * order); null when the bytes are not such (their length, a field's range, a word past the
   * vocabulary: a damaged cache). With `written`, the bytes are known to be those written (their
   * CRC-32 found again), and their words are not checked one by one.
   */
  static unpack(vocabulary: readonly string[], bytes: Uint8Array, count: number, wide: boolean, written = false): PackedTerms | null {
    const startBytes = (count * 3 + 1) * 4;
    if (!Number.isSafeInteger(count) || count < 0 || bytes.length < startBytes) return null;
    // Copied to a buffer of their own: typed arrays over the cache's bytes would need them aligned.
    const own = new Uint8Array(bytes.length);
    own.set(bytes);
    const starts = new Uint32Array(own.buffer, 0, count * 3 + 1);
    const size = wide ? 4 : 2;
    if ((bytes.length - startBytes) % size !== 0) return null;
    const words = wide ? new Uint32Array(own.buffer, startBytes, (bytes.length - startBytes) / 4) : new Uint16Array(own.buffer, startBytes, (bytes.length - startBytes) / 2);
    if (starts[0] !== 0 || starts[count * 3] !== words.length) return null;
    for (let at = 0; at < count * 3; at++) if (starts[at]! > starts[at + 1]!) return null;
    const terms = vocabulary.length;
    if (!written) for (let at = 0; at < words.length; at++) if (words[at]! >= terms) return null;
    return new PackedTerms(vocabulary, words, starts);
  }

  /** Its bytes, for `unpack` (this machine's byte order), and whether its words are 32-bit. */
  packedBytes(): { bytes: Uint8Array[]; wide: boolean } {
    const view = (array: Uint16Array | Uint32Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    return { bytes: [view(this.starts), view(this.words)], wide: this.words instanceof Uint32Array };
  }
}

/** One entry's terms in a `PackedTerms`: what an index is given for an entry read from a file's cache. */
export interface PackedEntryTerms {
  packed: PackedTerms;
  at: number;
}

/** Whether typed arrays hold numbers in little-endian order here (what a cache of packed terms records, and is read back by). */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Whether `numbers` are three lists of whole numbers, each a position of a vocabulary of `size` terms. */
export function validNumbers(numbers: unknown, size: number): numbers is readonly (readonly number[])[] {
  if (!Array.isArray(numbers) || numbers.length !== 3) return false;
  for (const field of numbers) {
    if (!Array.isArray(field)) return false;
    for (const at of field) if (!Number.isInteger(at) || at < 0 || at >= size) return false;
  }
  return true;
}
