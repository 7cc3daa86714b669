import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asciiJson } from "./ascii-json.js";

describe("asciiJson", () => {
  it("writes what JSON.parse reads back as the value, in ASCII only", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), (value, text, binary) => {
        for (const written of [value, { text, binary, nested: [text, { binary }] }]) {
          const json = asciiJson(written);
          expect(json).toMatch(/^[\x00-\x7f]*$/);
          expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(written)));
        }
      }),
    );
  });

  it("escapes the characters past ASCII and leaves ASCII text as JSON.stringify writes it", () => {
    expect(asciiJson({ note: "retry — then wait 🙂" })).toBe('{"note":"retry \\u2014 then wait \\ud83d\\ude42"}');
    expect(asciiJson({ path: "/tmp/x", n: 1 })).toBe(JSON.stringify({ path: "/tmp/x", n: 1 }));
    expect(asciiJson("\udcff")).toBe('"\\udcff"');
  });
});
