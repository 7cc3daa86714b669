import { describe, expect, it } from "vitest";
import { parseGitStatus } from "./parse-git-status.js";

describe("parseGitStatus", () => {
  it("gives each path of porcelain v1 -z output once, a rename by its new path", () => {
    expect(parseGitStatus("M  staged.ts\0 M unstaged.ts\0MM both.ts\0R  new name.ts\0old name.ts\0?? notes/\0?? caf\u00e9 \"x\".md\0")).toEqual([
      "staged.ts",
      "unstaged.ts",
      "both.ts",
      "new name.ts",
      "notes/",
      'caf\u00e9 "x".md',
    ]);
  });

  it("gives nothing for empty output or a record cut short", () => {
    expect([parseGitStatus(""), parseGitStatus("M ")]).toEqual([[], []]);
  });
});
