import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readTextFile } from "./read-text-file.js";
import { readUserFile, readUserFileSync, type UserFileOptions, type UserFileResult } from "./read-user-file.js";
import { statOrNull } from "./stat-or-null.js";

const posix = process.platform !== "win32";

describe.each([
  ["readUserFile", readUserFile],
  ["readUserFileSync", async (path: string, options?: UserFileOptions) => readUserFileSync(path, options)],
  ["readUserFile in the calling thread", (path: string, options?: UserFileOptions) => readUserFile(path, { ...options, inThread: true })],
] as Array<[string, (path: string, options?: UserFileOptions) => Promise<UserFileResult>]>)("%s", (_, read) => {
  it("reads a regular file's bytes, and a symbolic link to one", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.md"), "### Pattern: A\n");
    symlinkSync(join(directory, "a.md"), join(directory, "link.md"));
    expect([await read(join(directory, "a.md")), await read(join(directory, "link.md"))]).toEqual([
      { bytes: Buffer.from("### Pattern: A\n") },
      { bytes: Buffer.from("### Pattern: A\n") },
    ]);
  });

  it("reads an empty file as no bytes", async () => {
    const path = join(makeTempDir(), "empty.md");
    writeFileSync(path, "");
    expect(await read(path)).toEqual({ bytes: Buffer.alloc(0) });
  });

  it("says a missing file is missing, and that a file under a file cannot be", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "file"), "x");
    expect([await read(join(directory, "none.md")), await read(join(directory, "file/x.md"))]).toEqual([
      { missing: true },
      { warning: { path: join(directory, "file/x.md"), message: "its folder is a file, not a directory; skipped" } },
    ]);
  });

  it("skips a directory with a warning", async () => {
    const path = join(makeTempDir(), "folder.md");
    mkdirSync(path);
    expect(await read(path)).toEqual({ warning: { path, message: "is a directory, not a file; skipped" } });
  });

  it.runIf(posix)("skips a FIFO that nobody writes without waiting for a writer", async () => {
    const path = join(makeTempDir(), "heuristics.md");
    execFileSync("mkfifo", [path]);
    expect(await read(path)).toEqual({ warning: { path, message: "is a FIFO, not a file; skipped" } });
  });

  it.runIf(posix && existsSync("/dev/zero"))("skips a symbolic link to /dev/zero or /dev/urandom without reading from it", async () => {
    const directory = makeTempDir();
    symlinkSync("/dev/zero", join(directory, "zero.md"));
    symlinkSync("/dev/urandom", join(directory, "random.md"));
    expect([await read(join(directory, "zero.md")), await read(join(directory, "random.md"))]).toEqual([
      { warning: { path: join(directory, "zero.md"), message: "is a character device, not a file; skipped" } },
      { warning: { path: join(directory, "random.md"), message: "is a character device, not a file; skipped" } },
    ]);
  });

  it("skips a loop of symbolic links with a warning", async () => {
    const directory = makeTempDir();
    symlinkSync(join(directory, "b.md"), join(directory, "a.md"));
    symlinkSync(join(directory, "a.md"), join(directory, "b.md"));
    expect(await read(join(directory, "a.md"))).toEqual({ warning: { path: join(directory, "a.md"), message: "is a loop of symbolic links; skipped" } });
  });

  it("skips a file over the limit, and reads one exactly at it", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "over.md"), "x".repeat(101));
    writeFileSync(join(directory, "at.md"), "x".repeat(100));
    expect([await read(join(directory, "over.md"), { maxBytes: 100 }), await read(join(directory, "at.md"), { maxBytes: 100 })]).toEqual([
      { warning: { path: join(directory, "over.md"), message: "is 101 bytes, over the 100-byte limit; skipped" } },
      { bytes: Buffer.from("x".repeat(100)) },
    ]);
  });

  it.runIf(process.platform === "linux")("reads a file that says it is smaller than it is to its end, and stops one byte past the limit", async () => {
    // /proc files give a size of 0 whatever they hold; a process's smaps is tens of kilobytes.
    const path = "/proc/self/smaps";
    const whole = await read(path);
    const text = "bytes" in whole ? Buffer.from(whole.bytes).toString("utf8") : "";
    expect([text.length > 32 * 1024, text.endsWith("\n"), text.split("\n")[0]]).toEqual([true, true, readFileSync(path, "utf8").split("\n")[0]]);
    expect(await read(path, { maxBytes: 10 })).toEqual({ warning: { path, message: "is over the 10-byte limit; skipped" } });
  });
});

describe("inThread", () => {
  it("reads and states in the calling thread: done before the event loop turns, as libuv's threads never are", async () => {
    const path = join(makeTempDir(), "a.md");
    writeFileSync(path, "### Pattern: A\n");
    const order: string[] = [];
    setImmediate(() => order.push("event loop"));
    await readUserFile(path, { inThread: true }).then(() => order.push("read"));
    await statOrNull(path, { inThread: true }).then((info) => order.push(`stated ${info?.size}`));
    await readTextFile(path, { inThread: true }).then((file) => order.push("text" in file ? file.text : "none"));
    await readUserFile(path).then(() => order.push("read on libuv's threads"));
    expect(order).toEqual(["read", "stated 15", "### Pattern: A\n", "event loop", "read on libuv's threads"]);
  });
});
