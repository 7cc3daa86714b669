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

  it("keeps each invalid byte as one character, valid text around it as it is", () => {
    expect(decodeLossless(Buffer.from([0x61, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0x80]))).toBe("a\uDCFF\uDCC3(€\uDCED\uDCA0\uDC80");
  });
});
