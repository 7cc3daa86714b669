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

  it("keeps each invalid byte as one character, valid text around it as it is", () => {
    expect(decodeLossless(Buffer.from([0x61, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0x80]))).toBe("a\uDCFF\uDCC3(€\uDCED\uDCA0\uDC80");
  });
});
