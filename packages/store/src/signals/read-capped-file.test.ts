import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readCappedFile } from "./read-capped-file.js";

describe("readCappedFile", () => {
  it("reads at most the cap, saying whether there was more, with the BOM dropped and invalid UTF-8 replaced", () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "a.json"), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d]));
    expect([readCappedFile(join(directory, "a.json"), 100), readCappedFile(join(directory, "a.json"), 4)]).toEqual([
      { text: "{\ufffd}", truncated: false },
      { text: "{", truncated: true },
    ]);
  });

  it("says a missing file is missing and a folder is an error", () => {
    const directory = makeTempDir();
    mkdirSync(join(directory, "folder"));
    expect([readCappedFile(join(directory, "none"), 100), readCappedFile(join(directory, "folder"), 100)]).toEqual([{ missing: true }, { error: "is a directory" }]);
  });

  it.skipIf(process.platform === "win32")("never opens a FIFO, which would wait for a writer", () => {
    const fifo = join(makeTempDir(), "package.json");
    execFileSync("mkfifo", [fifo]);
    expect(readCappedFile(fifo, 100)).toEqual({ error: "is not a regular file" });
  });
});
