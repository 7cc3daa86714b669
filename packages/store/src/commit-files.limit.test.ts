import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { commitFiles } from "./commit-files.js";
import { MAX_FILE_BYTES } from "./read-user-file.js";

describe("commitFiles (the read limit)", () => {
  it("refuses to write a file the store could not read back (over MAX_FILE_BYTES), and changes no file of the commit", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "heuristics.md"), "old heuristics");
    writeFileSync(join(directory, "patterns.md"), "old patterns");
    const attempt = commitFiles(directory, [
      { path: join(directory, "patterns.md"), content: "new patterns" },
      { path: join(directory, "heuristics.md"), content: `# Global Heuristics\n${"x".repeat(MAX_FILE_BYTES)}` },
    ]);
    await expect(attempt).rejects.toMatchObject({ code: "STORE_WRITE_FAILED" });
    await expect(attempt).rejects.toThrow(/^cannot write heuristics\.md in .*: it would be 67108884 bytes, over the 67108864-byte limit it must be read back within; nothing was changed — forget or archive entries to make room$/);
    expect([readFileSync(join(directory, "heuristics.md"), "utf8"), readFileSync(join(directory, "patterns.md"), "utf8")]).toEqual(["old heuristics", "old patterns"]);
    expect(readdirSync(directory).sort()).toEqual(["heuristics.md", "patterns.md"]);
  });
});
