import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokenizeText } from "./tokenize-text.js";

describe("tokenizeText", () => {
  it("splits paths on / . _ - and keeps the file extension", () => {
    expect(tokenizeText("plugins/iflow/hooks/lib/semantic_memory/retry.py")).toEqual(["plugin", "iflow", "hook", "lib", "semant", "memori", "retri", "py"]);
  });

  it("splits camelCase and PascalCase identifiers and keeps the whole identifier too", () => {
    expect(tokenizeText("AskUserQuestion")).toEqual(["askuserquest", "user", "question"]);
    expect(tokenizeText("parseHTTPResponse")).toEqual(["parsehttprespons", "pars", "http", "respons"]);
  });

  it("lowercases, stems lightly and drops stop words, bare numbers and one-letter words", () => {
    expect(tokenizeText("The retries were timing out after 30 s")).toEqual(["retri", "time"]);
  });

  it("keeps tool names and repeats (counts matter to the score)", () => {
    expect(tokenizeText("pytest, npm and git; git")).toEqual(["pytest", "npm", "git", "git"]);
  });

  it("gives ASCII text the same terms whether or not other text beside it is ASCII", () => {
    // A lone "é" is a one-letter word (dropped) that makes the text not ASCII.
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."aZ9_-/. xHTTPServer2askUser#retries"), maxLength: 60 }), (text) => {
        expect(tokenizeText(`${text} é`)).toEqual(tokenizeText(text));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary-ascii" }), (text) => {
        expect(tokenizeText(`${text} é`)).toEqual(tokenizeText(text));
      }),
    );
  });

  it("reads any script and never throws on odd input", () => {
    expect(tokenizeText("Größe überprüfen — café")).toEqual(["größe", "überprüfen", "café"]);
    expect(tokenizeText("")).toEqual([]);
    expect(tokenizeText("### --- *** 123 456")).toEqual([]);
  });
});
