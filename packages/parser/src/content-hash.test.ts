import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FEW_HASHES, hashContent, hashContents, javaScriptSha256Hex, normalizeContent, sha256Hex } from "./content-hash.js";

// Python's str.isspace() set, written out independently of the implementation under test.
const PYTHON_WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  ...Array.from({ length: 11 }, (_, index) => 0x2000 + index),
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** The rule of DESIGN.md §3.2, as Python computes it: lower, split on whitespace, join, sha256[:16]. */
function referenceHash(text: string): string {
  const words: string[] = [];
  let word = "";
  for (const character of text.toLowerCase()) {
    if (PYTHON_WHITESPACE.has(character.codePointAt(0)!)) {
      if (word !== "") words.push(word);
      word = "";
    } else {
      word += character;
    }
  }
  if (word !== "") words.push(word);
  return createHash("sha256").update(Buffer.from(words.join(" "), "utf8")).digest("hex").slice(0, 16);
}

const vectors = JSON.parse(readFileSync(new URL("./__fixtures__/python-hash-vectors.json", import.meta.url), "utf8")) as Array<{ text: string; hash: string }>;

describe("hashContent", () => {
  it("matches the hash of a real global-store entry written by the retrospective skill", () => {
    expect(hashContent("Breaking a single file modification into many small separate tasks.")).toBe("2822c8d1d1ca7a22");
  });

  it("equals Python's hashlib value on every vector generated with python3 (whitespace, Unicode case, emoji, empty)", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(200);
    expect(vectors.filter((vector) => hashContent(vector.text) !== vector.hash)).toEqual([]);
  });

  it("treats U+001C–U+001F and U+0085 as whitespace and U+FEFF, U+200B as text, as Python does", () => {
    expect(hashContent("a\u001cb")).toBe(hashContent("a b"));
    expect(hashContent("a\u0085b")).toBe(hashContent("a b"));
    expect(hashContent("a\ufeffb")).not.toBe(hashContent("a b"));
    expect(hashContent("a\u200bb")).not.toBe(hashContent("a b"));
  });

  it("equals the normalisation rule on arbitrary Unicode", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => hashContent(text) === referenceHash(text)), { numRuns: 2000 });
  });

  it("ignores how the words are spaced and cased", () => {
    const whitespace = fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u3000", "\u001f", "  \r\n");
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme-ascii", minLength: 1 }).map((word) => word.replace(/\s/g, "x")), { minLength: 1 }), whitespace, (words, gap) => {
        expect(hashContent(` ${words.join(gap)} `.toUpperCase())).toBe(hashContent(words.join(" ")));
      }),
    );
  });
});

describe("normalizeContent", () => {
  it("lowercases and joins the words with single spaces", () => {
    expect(normalizeContent("  Keep SKILL.md\t\tthin.\u2028 ")).toBe("keep skill.md thin.");
  });
});

describe("sha256Hex", () => {
  const native = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

  it("gives node's SHA-256 in JavaScript for any text: every script, astral characters, lone surrogates, long texts", () => {
    expect(javaScriptSha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        expect(javaScriptSha256Hex(text)).toBe(native(text));
      }),
      { numRuns: 1000 },
    );
    expect(javaScriptSha256Hex("Größe — 𝐀 ".repeat(5000))).toBe(native("Größe — 𝐀 ".repeat(5000)));
  });

  it("gives the same digests before and after it leaves JavaScript for node's crypto, one at a time or in batches", () => {
    const texts = Array.from({ length: FEW_HASHES * 3 }, (_, index) => `Entry ${index} — ${"x".repeat(index)}`);
    expect(texts.map(sha256Hex)).toEqual(texts.map(native));
    expect(hashContents([texts[1]!, ...texts])).toEqual([texts[1]!, ...texts].map(hashContent));
    expect(hashContents(vectors.map((vector) => vector.text))).toEqual(vectors.map((vector) => vector.hash));
  });
});
