import { endianness } from "node:os";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeEntry } from "../__fixtures__/make-entry.js";
import { lazyRelevanceIndex } from "./lazy-relevance-index.js";
import { LITTLE_ENDIAN, PackedTerms } from "./packed-terms.js";
import { buildRelevanceIndex } from "./relevance-index.js";

// Lists of an entry's three fields' positions in a vocabulary of `size` terms.
const listsArbitrary = (size: number) => fc.array(fc.tuple(...[0, 1, 2].map(() => fc.array(fc.nat({ max: size - 1 }), { maxLength: 6 }))), { maxLength: 20 });
const bytesOf = (packed: PackedTerms) => Buffer.concat(packed.packedBytes().bytes);

describe("PackedTerms", () => {
  it("gives each entry's lists back, packed and unpacked from its bytes (16-bit words, and 32-bit past 65,536 terms)", () => {
    for (const size of [3, 70_000]) {
      const vocabulary = Array.from({ length: size }, (_, at) => `t${at}`);
      fc.assert(
        fc.property(listsArbitrary(size), (lists) => {
          const packed = PackedTerms.pack(vocabulary, lists)!;
          const { wide } = packed.packedBytes();
          expect(wide).toBe(size > 0xffff);
          const again = PackedTerms.unpack(vocabulary, bytesOf(packed), lists.length, wide)!;
          for (const kept of [packed, again]) {
            expect(kept.count).toBe(lists.length);
            lists.forEach((numbers, at) => expect(kept.numbersAt(at)).toEqual(numbers));
          }
        }),
        { numRuns: 50 },
      );
    }
  });

  it("extends the first entries of a pack by more, in its vocabulary grown, to the bytes packing them all gives (across 16- and 32-bit words)", () => {
    for (const [kept, grown] of [[3, 5], [3, 70_000], [70_000, 70_004]] as const) {
      const vocabulary = Array.from({ length: grown }, (_, at) => `t${at}`);
      fc.assert(
        fc.property(listsArbitrary(kept), listsArbitrary(grown), fc.nat(), (before, after, cut) => {
          const first = before.length === 0 ? 0 : cut % (before.length + 1);
          const base = PackedTerms.pack(vocabulary.slice(0, kept), before)!;
          const extended = base.extend(first, vocabulary, after)!;
          const whole = PackedTerms.pack(vocabulary, [...before.slice(0, first), ...after])!;
          expect(extended.count).toBe(first + after.length);
          expect(extended.packedBytes().wide).toBe(whole.packedBytes().wide);
          expect(bytesOf(extended)).toEqual(bytesOf(whole));
          expect(extended.vocabulary).toBe(vocabulary);
        }),
        { numRuns: 40 },
      );
    }
  });

  it("extends nothing it cannot: a vocabulary that does not begin with its own, a kept word past its vocabulary, an invalid list, more entries than it has", () => {
    const vocabulary = ["retri", "call", "time"];
    const base = PackedTerms.pack(vocabulary.slice(0, 2), [[[0, 1], [1], []], [[], [0], [1]]])!;
    expect(base.extend(2, vocabulary, [[[2], [], []]])?.numbersAt(2)).toEqual([[2], [], []]);
    expect(base.extend(2, ["call", "retri", "time"], [])).toBeNull();
    expect(base.extend(2, ["retri"], [])).toBeNull();
    expect(base.extend(2, vocabulary, [[[3], [], []]])).toBeNull();
    expect(base.extend(3, vocabulary, [])).toBeNull();
    expect(base.extend(-1, vocabulary, [])).toBeNull();
    // A word past the vocabulary it was packed with (as from a damaged cache's bytes, taken as written).
    const bytes = bytesOf(base);
    bytes.writeUInt16LE(2, 7 * 4);
    const damaged = PackedTerms.unpack(vocabulary.slice(0, 2), bytes, 2, false, true)!;
    expect(damaged.extend(2, vocabulary, [])).toBeNull();
    expect(damaged.extend(0, vocabulary, [])?.count).toBe(0);
  });

  it("counts the terms of its vocabulary its entries hold", () => {
    const vocabulary = ["retri", "call", "time", "idempot"];
    expect(PackedTerms.pack(vocabulary, [[[0, 1], [1], []], [[], [0], [3, 3]]])!.termsUsed()).toBe(3);
    expect(PackedTerms.pack(vocabulary, [])!.termsUsed()).toBe(0);
  });

  it("packs no list that is not three lists of positions of its vocabulary", () => {
    const vocabulary = ["retri", "call"];
    for (const numbers of [[[2], [], []], [[0], []], [[0.5], [], []], [[-1], [], []], [[0], "1", []]]) {
      expect(PackedTerms.pack(vocabulary, [[[0], [1], []], numbers as number[][]])).toBeNull();
    }
    expect(PackedTerms.pack(vocabulary, [])?.count).toBe(0);
  });

  it("unpacks no bytes that are not packed terms of that many entries: a word past the vocabulary, a field's range out of order or past the words, another length", () => {
    const vocabulary = ["retri", "call", "time"];
    const good = bytesOf(PackedTerms.pack(vocabulary, [[[0, 1], [2], []], [[], [1], [0]]])!);
    expect(PackedTerms.unpack(vocabulary, good, 2, false)?.numbersAt(1)).toEqual([[], [1], [0]]);
    const changed = (at: number, value: number, size: 2 | 4) => {
      const bytes = Buffer.from(good);
      if (size === 4) bytes.writeUInt32LE(value, at);
      else bytes.writeUInt16LE(value, at);
      return bytes;
    };
    const words = 7 * 4;
    const damaged: [Uint8Array, number, boolean][] = [
      [changed(words, 3, 2), 2, false],
      [changed(4, 4, 4), 2, false],
      [changed(0, 1, 4), 2, false],
      [changed(6 * 4, 7, 4), 2, false],
      [good.subarray(0, good.length - 2), 2, false],
      [Buffer.concat([good, Buffer.alloc(2)]), 2, false],
      [good, 3, false],
      [good, 1, false],
      [good, 2, true],
      [good.subarray(0, 8), 2, false],
      [good, -1, false],
      [good, 0.5, false],
    ];
    for (const [bytes, count, wide] of damaged) expect(PackedTerms.unpack(vocabulary, bytes, count, wide)).toBeNull();
  });

  it("unpacks bytes known to be written (their checksum found again) without checking each word; an entry with a word past its vocabulary (a vocabulary damaged where it was kept) gives no numbers, is tokenized by the index and is no term to the lazy one", () => {
    const vocabulary = ["retri", "call", "time"];
    const bytes = bytesOf(PackedTerms.pack(vocabulary, [[[0, 1], [2], []], [[], [1], [0]]])!);
    expect(PackedTerms.unpack(vocabulary.slice(0, 2), bytes, 2, false)).toBeNull();
    const packed = PackedTerms.unpack(vocabulary.slice(0, 2), bytes, 2, false, true)!;
    expect([packed.numbersAt(0), packed.numbersAt(1)]).toEqual([null, [[], [1], [0]]]);
    const entries = [makeEntry({ name: "retri call", description: "time" }), makeEntry({ name: "", description: "call", metadataText: "- Instead: retri" })];
    const known = new Map(entries.map((entry, at) => [entry, { packed, at }]));
    expect(buildRelevanceIndex(entries, undefined, known)).toEqual(buildRelevanceIndex(entries));
    const lazy = lazyRelevanceIndex(entries, undefined, known);
    expect([lazy.has("time"), lazy.has("call")]).toEqual([false, true]);
  });

  it("holds its entries' places and no other, and gives each entry's terms in order", () => {
    const packed = PackedTerms.pack(["retri", "timeout"], [[[0], [1], []], [[], [0, 1], [1]]])!;
    expect([-1, 0, 1, 2, 0.5, Number.NaN].map((at) => packed.holds(at))).toEqual([false, true, true, false, false, false]);
    expect(packed.entryTerms()).toEqual([
      { packed, at: 0 },
      { packed, at: 1 },
    ]);
    expect(PackedTerms.pack([], [])!.entryTerms()).toEqual([]);
  });

  it("knows this machine's byte order", () => {
    expect(LITTLE_ENDIAN).toBe(endianness() === "LE");
  });
});
