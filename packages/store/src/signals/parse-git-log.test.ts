import { describe, expect, it } from "vitest";
import { parseGitLog } from "./parse-git-log.js";

describe("parseGitLog", () => {
  it("reads each commit's subject and files, and commits without files", () => {
    expect(parseGitLog("\x1eTime out embedding calls\0\nsemantic_memory/timeouts.py\0tests/test timeouts.py\0\x1eEmpty commit\0\x1eSubject only")).toEqual([
      { subject: "Time out embedding calls", files: ["semantic_memory/timeouts.py", "tests/test timeouts.py"] },
      { subject: "Empty commit", files: [] },
      { subject: "Subject only", files: [] },
    ]);
  });

  it("gives nothing for empty output", () => {
    expect(parseGitLog("")).toEqual([]);
  });
});
