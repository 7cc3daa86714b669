import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { COMMIT_JOURNAL, commitFiles, recoverCommit } from "./commit-files.js";

describe("commitFiles", () => {
  it("replaces every file and leaves no temporary file or journal behind", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a");
    await commitFiles(directory, [
      { path: join(directory, "a.md"), content: "new a" },
      { path: join(directory, "b.md"), content: "new b" },
    ]);
    expect(readdirSync(directory).sort()).toEqual(["a.md", "b.md"]);
    expect([readFileSync(join(directory, "a.md"), "utf8"), readFileSync(join(directory, "b.md"), "utf8")]).toEqual(["new a", "new b"]);
    expect(statSync(join(directory, "b.md")).mode & 0o777).toBe(0o600);
  });

  it("changes nothing and leaves no temporary file when one of the files cannot be written, the others written meanwhile", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a");
    writeFileSync(join(directory, "c.md"), "old c");
    // A file where b.md's folder should be: its folder cannot be made.
    writeFileSync(join(directory, "sub"), "not a folder");
    const large = Buffer.alloc(8_000_000, 0x61);
    await expect(
      commitFiles(directory, [
        { path: join(directory, "a.md"), content: [large, Buffer.from("new a")] },
        { path: join(directory, "sub", "b.md"), content: "new b" },
        { path: join(directory, "c.md"), content: [large, Buffer.from("new c")] },
      ]),
    ).rejects.toMatchObject({ code: "STORE_WRITE_FAILED" });
    expect(readdirSync(directory).sort()).toEqual(["a.md", "c.md", "sub"]);
    expect([readFileSync(join(directory, "a.md"), "utf8"), readFileSync(join(directory, "c.md"), "utf8")]).toEqual(["old a", "old c"]);
  });
});

describe("recoverCommit", () => {
  it("rolls a journalled commit forward when the writer died half-way through its renames", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "new a"); // already renamed before the crash
    writeFileSync(join(directory, "b.md"), "old b");
    writeFileSync(join(directory, "b.md.iflow-0123456789abcdef.tmp"), "new b");
    writeFileSync(join(directory, COMMIT_JOURNAL), JSON.stringify({ renames: [
      { from: join(directory, "a.md.iflow-0123456789abcdef.tmp"), to: join(directory, "a.md") },
      { from: join(directory, "b.md.iflow-0123456789abcdef.tmp"), to: join(directory, "b.md") },
    ] }));
    expect(await recoverCommit(directory)).toBe(true);
    expect(readdirSync(directory).sort()).toEqual(["a.md", "b.md"]);
    expect(readFileSync(join(directory, "b.md"), "utf8")).toBe("new b");
  });

  it("discards the temporary files of a commit that died before its journal, keeping the old files", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a");
    writeFileSync(join(directory, "a.md.iflow-0123456789abcdef.tmp"), "half");
    writeFileSync(join(directory, ".lock.0123456789abcdef.tmp"), "a waiter's lock file, not ours");
    expect(await recoverCommit(directory)).toBe(false);
    expect(readdirSync(directory).sort()).toEqual([".lock.0123456789abcdef.tmp", "a.md"]);
    expect(readFileSync(join(directory, "a.md"), "utf8")).toBe("old a");
    expect(existsSync(join(directory, COMMIT_JOURNAL))).toBe(false);
  });
});
