import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serializeEntry } from "./serialize-entry.js";
import { stripControlCharacters } from "./strip-control-characters.js";

describe("stripControlCharacters", () => {
  it("removes colour, cursor and title sequences whole, and NUL, carriage return, bell and C1 controls", () => {
    expect(stripControlCharacters("a\u001b[31mred\u001b[0m\u001b[2J\u001b]0;pwned\u0007\u0000b\rc\u0007\u009b2Jd\u001bce")).toBe("aredbc2Jde");
  });

  it("keeps newlines, tabs and every printable character", () => {
    expect(stripControlCharacters("line\n\tindented — ünïcode ✓ \u2028")).toBe("line\n\tindented — ünïcode ✓ \u2028");
  });

  it("leaves no control character but tab and newline in any text (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(stripControlCharacters(text)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      }),
    );
  });
});

describe("serializeEntry", () => {
  it("writes an entry without the control characters of its header, description or metadata", () => {
    expect(serializeEntry({ headerLine: "### Heuristic: \u001b[2JClear\u0000", description: "Text\u001b]0;title\u0007 here.", metadataText: "- Tags: a\u0008b" })).toBe("### Heuristic: Clear\nText here.\n- Tags: ab\n");
  });
});
