import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readTextFile, readTextFileSync, type TextFileResult } from "./read-text-file.js";

describe.each([
  ["readTextFile", readTextFile],
  ["readTextFileSync", async (path: string) => readTextFileSync(path)],
] as Array<[string, (path: string) => Promise<TextFileResult>]>)("%s", (_, read) => {
  it("reads UTF-8, replacing invalid bytes with U+FFFD", async () => {
    const path = join(makeTempDir(), "a.md");
    writeFileSync(path, Buffer.from([0x61, 0xff, 0x62, 0xc3, 0xa9, 0xe2, 0x82, 0x63, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x80]));
    expect(await read(path)).toEqual({ text: "a\ufffdbé\ufffdc\ufffd\ufffd\ufffd😀" });
  });

  it("drops a byte-order mark at the start, and only there", async () => {
    const path = join(makeTempDir(), "bom.md");
    writeFileSync(path, "\ufeff### Pattern: A\n\ufeff");
    expect(await read(path)).toEqual({ text: "### Pattern: A\n\ufeff" });
  });

  it("says a missing file is missing, and turns a directory or a file under a file into warnings", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "file"), "x");
    mkdirSync(join(directory, "folder.md"));
    expect([await read(join(directory, "none.md")), await read(join(directory, "folder.md")), await read(join(directory, "file/x.md"))]).toEqual([
      { missing: true },
      { warning: { path: join(directory, "folder.md"), message: "is a directory, not a file; skipped" } },
      { warning: { path: join(directory, "file/x.md"), message: "its folder is a file, not a directory; skipped" } },
    ]);
  });
});
