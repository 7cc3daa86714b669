import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeLossless, encodeLossless } from "./lossless-utf8.js";

describe("decodeLossless and encodeLossless", () => {
  it("give back the very bytes of any byte string (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(encodeLossless(decodeLossless(bytes)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("decode valid UTF-8 as usual, and encode text without escaped bytes as usual (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(decodeLossless(Buffer.from(text, "utf8"))).toBe(text);
        expect(encodeLossless(text).equals(Buffer.from(text, "utf8"))).toBe(true);
      }),
    );
  });

  it("encode any UTF-16 text as a search of the text for escaped bytes would (property)", () => {
    // Code units where the two ways could part: escaped bytes, other lone surrogates, U+FFFD itself.
    const unit = fc.oneof(fc.integer({ min: 0xdc80, max: 0xdcff }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.constant(0xfffd), fc.integer({ min: 0, max: 0xffff }), fc.constant(0x61));
    const bySearch = (text: string): Buffer => {
      const parts: Buffer[] = [];
      let start = 0;
      for (const match of text.matchAll(/(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g)) {
        parts.push(Buffer.from(text.slice(start, match.index), "utf8"), Buffer.from([match[0].charCodeAt(0) - 0xdc00]));
        start = match.index + 1;
      }
      parts.push(Buffer.from(text.slice(start), "utf8"));
      return Buffer.concat(parts);
    };
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 24 }), (units) => {
        const text = String.fromCharCode(...units);
        expect(encodeLossless(text).equals(bySearch(text))).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect([...encodeLossless("a\uFFFDb")]).toEqual([0x61, 0xef, 0xbf, 0xbd, 0x62]);
    expect([...encodeLossless("\uFFFD\uDCFF")]).toEqual([0xef, 0xbf, 0xbd, 0xff]);
  });

  it("decode as a walk of the bytes by Unicode's table of well-formed sequences does, whatever the bytes (property)", () => {
    // The byte-by-byte reading (Unicode 15, table 3-7): each well-formed sequence as its
    // character, each other byte as U+DC00 + it.
    const reference = (bytes: Uint8Array): string => {
      let text = "";
      for (let at = 0; at < bytes.length; ) {
        const first = bytes[at]!;
        const within = (offset: number, low = 0x80, high = 0xbf) => at + offset < bytes.length && bytes[at + offset]! >= low && bytes[at + offset]! <= high;
        let length = 0;
        if (first < 0x80) length = 1;
        else if (first >= 0xc2 && first <= 0xdf) length = within(1) ? 2 : 0;
        else if (first >= 0xe0 && first <= 0xef) length = within(1, first === 0xe0 ? 0xa0 : 0x80, first === 0xed ? 0x9f : 0xbf) && within(2) ? 3 : 0;
        else if (first >= 0xf0 && first <= 0xf4) length = within(1, first === 0xf0 ? 0x90 : 0x80, first === 0xf4 ? 0x8f : 0xbf) && within(2) && within(3) ? 4 : 0;
        text += length === 0 ? String.fromCharCode(0xdc00 + first) : Buffer.from(bytes.subarray(at, at + length)).toString("utf8");
        at += Math.max(1, length);
      }
      return text;
    };
    // Bytes near the edges of the table, and whole characters of every length.
    const piece = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 4 }),
      fc.constantFrom(0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff).map((byte) => Uint8Array.of(byte)),
      fc.string({ unit: "grapheme", maxLength: 3 }).map((text) => new Uint8Array(Buffer.from(text, "utf8"))),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const bytes = new Uint8Array(Buffer.concat(pieces));
        expect(decodeLossless(bytes)).toBe(reference(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps each invalid byte as one character, valid text around it as it is", () => {
    expect(decodeLossless(Buffer.from([0x61, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0x80]))).toBe("a\uDCFF\uDCC3(€\uDCED\uDCA0\uDC80");
  });
});
