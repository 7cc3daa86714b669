import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readTextFile } from "./read-text-file.js";

describe("readTextFile", () => {
  it("reads UTF-8, replacing invalid bytes with U+FFFD", async () => {
    const path = join(makeTempDir(), "a.md");
    writeFileSync(path, Buffer.from([0x61, 0xff, 0x62, 0xc3, 0xa9]));
    expect(await readTextFile(path)).toEqual({ text: "a\ufffdbé" });
  });

  it("says a missing file is missing, and turns a directory or a file under a file into warnings", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, "file"), "x");
    mkdirSync(join(directory, "folder.md"));
    expect([await readTextFile(join(directory, "none.md")), await readTextFile(join(directory, "folder.md")), await readTextFile(join(directory, "file/x.md"))]).toEqual([
      { missing: true },
      { warning: { path: join(directory, "folder.md"), message: "is a directory, not a file; skipped" } },
      { warning: { path: join(directory, "file/x.md"), message: "its folder is a file, not a directory; skipped" } },
    ]);
  });
});
