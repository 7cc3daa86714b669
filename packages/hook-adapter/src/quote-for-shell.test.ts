import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteForShell } from "./quote-for-shell.js";

// What `sh -c` makes of the quoted word: printf prints it back as one argument.
const throughShell = (word: string) => execFileSync("sh", ["-c", `printf '%s' ${quoteForShell(word)}`], { encoding: "utf8" });

describe("quoteForShell", () => {
  it("wraps a word in single quotes and writes a single quote as '\\''", () => {
    expect(quoteForShell("/opt/it's/x.cjs")).toBe("'/opt/it'\\''s/x.cjs'");
  });

  it("gives sh back the word unchanged, whatever shell syntax it contains", () => {
    const word = "/tmp/a $(touch PWNED) `touch PWNED2` \"q\" 'p' \\ $HOME ; | & > <";
    expect(throughShell(word)).toBe(word);
  });

  it("gives sh back any word without a NUL unchanged (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }).filter((word) => !word.includes("\0")), (word) => {
        expect(throughShell(word)).toBe(word);
      }),
      { numRuns: 60 },
    );
  });
});
