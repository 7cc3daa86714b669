import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { errorMessage } from "./error-code.js";
import { writeFileAtomically } from "./write-file-atomically.js";

describe("writeFileAtomically", () => {
  it("fails with one plain line naming the file when a directory is in its way, and leaves no temporary file", async () => {
    const directory = makeTempDir();
    mkdirSync(join(directory, "rules.md"));
    const attempt = writeFileAtomically(join(directory, "rules.md"), "text");
    await expect(attempt).rejects.toMatchObject({ code: "STORE_WRITE_FAILED" });
    await expect(attempt).rejects.toThrow(new RegExp(`^cannot write ${join(directory, "rules.md")}: a directory is in the way \\(EISDIR\\); nothing was changed$`));
    expect(readdirSync(directory)).toEqual(["rules.md"]);
  });
});

describe("writeFileAtomically in pieces", () => {
  it("writes the pieces' text one after the other, whatever characters lie where a megabyte ends", async () => {
    const path = join(makeTempDir(), "cache.json");
    // Some 3 MB of lines of one-, two-, three- and four-byte characters, of lengths that do not divide a megabyte.
    const pieces = Array.from({ length: 30_000 }, (_, at) => `${"aé€😀".repeat((at % 37) + 1)} ${at}\n`);
    await writeFileAtomically(path, pieces, { durable: false });
    expect(readFileSync(path, "utf8")).toBe(pieces.join(""));
    expect(readFileSync(path).length).toBe(Buffer.byteLength(pieces.join("")));
    expect(readdirSync(join(path, ".."))).toEqual(["cache.json"]);
    // A piece of over a megabyte between small ones.
    const large = ["{\n", "é".repeat(1_500_000), "\n}\n"];
    await writeFileAtomically(path, large, { durable: false });
    expect(readFileSync(path, "utf8")).toBe(large.join(""));
  });

  it("writes pieces of bytes one after the other, small and large, a single one and none", async () => {
    const path = join(makeTempDir(), "cache.json");
    // Some 3 MB in small pieces, then one over a megabyte between small ones.
    const pieces = Array.from({ length: 30_000 }, (_, at) => Buffer.from(`${"aé€😀".repeat((at % 37) + 1)} ${at}\n`));
    // Empty pieces among them (an entry's line is never empty, but nothing needs it), and more than one writev takes.
    const withEmpty = Array.from({ length: 2_500 }, (_, at) => (at % 3 === 0 ? Buffer.alloc(0) : Buffer.from(`${at},`)));
    for (const content of [pieces, withEmpty, [Buffer.from("{\n"), Buffer.alloc(1_500_000, 0x61), Buffer.from("\n}\n")], [Buffer.from([0xff, 0x00])]]) {
      await writeFileAtomically(path, content, { durable: false });
      expect(readFileSync(path).equals(Buffer.concat(content))).toBe(true);
    }
    await writeFileAtomically(path, [] as Uint8Array[], { durable: false });
    expect(readFileSync(path).length).toBe(0);
    expect(readdirSync(join(path, ".."))).toEqual(["cache.json"]);
  });
});

describe("errorMessage", () => {
  it("says a read-only file system, a full disk and a permission error in plain words, with the code", () => {
    const system = (code: string) => Object.assign(new Error(`${code}: something, open '/x'`), { code });
    expect([errorMessage(system("EROFS")), errorMessage(system("ENOSPC")), errorMessage(system("EACCES"))]).toEqual([
      "the file system is read-only (EROFS)",
      "the disk is full (ENOSPC)",
      "permission denied (EACCES)",
    ]);
    expect(errorMessage(new Error("first line\nsecond line"))).toBe("first line");
  });
});
