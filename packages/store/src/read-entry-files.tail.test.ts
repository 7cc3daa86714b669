import { appendFileSync, cpSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readKeptCacheFile, writeKeptCacheFile, type KeptCacheFile } from "./__fixtures__/kept-cache-file.js";
import { entryFileCachePath, LARGE_FILE_BYTES, type EntryFileCache, type FileTail } from "./caches/entry-file-cache.js";
import type { Entry } from "@iflow-memory/parser";
import { grownFileText } from "./read-entry-files.js";
import { readMemorySources } from "./read-memory-sources.js";
import { tempDir } from "./__fixtures__/temp-dir.js";

const CORPORA = resolve(__dirname, "../../../test/fixtures/corpora");
const LEARNING = "\n### Heuristic: Check the retry budget first\nBefore raising a timeout, count the retries.\n- Observation count: 1\n";

// The real 2026-04 bank and the example store; every file kept with its tail (`largeFileBytes: 0`,
// where the real bank's files are smaller than the default), on a clock a minute ahead (settled).
function realSources({ largeFileBytes }: { largeFileBytes?: number } = { largeFileBytes: 0 }) {
  const root = tempDir("iflow-file-tail-");
  const projectRoot = join(root, "project");
  const globalStoreDir = join(root, "store");
  cpSync(join(CORPORA, "iflow-kb-2026-04/docs/knowledge-bank"), join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  cpSync(join(CORPORA, "global-store-example"), globalStoreDir, { recursive: true });
  const cache: EntryFileCache = { dir: join(globalStoreDir, ".cache"), salt: "test 1", now: () => Date.now() + 60_000, ...(largeFileBytes === undefined ? {} : { largeFileBytes }) };
  const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
  const read = (withCache = true) => readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, ...(withCache ? { cache, terms: true } : {}) });
  return { projectRoot, cache, heuristics, read };
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
// A file's kept cache: its header, its second line (with the tail), its terms and a line per entry.
const keptFile = (cache: EntryFileCache, path: string) => readKeptCacheFile(entryFileCachePath(cache, path));
const keptTail = (cache: EntryFileCache, path: string) => keptFile(cache, path).meta.tail as FileTail | undefined;
// The kept entries of `path`, the first renamed: a read that takes them from the cache shows the name, one that parses the file does not.
function markFirstKeptEntry(cache: EntryFileCache, path: string): void {
  const kept = keptFile(cache, path);
  const entry = JSON.parse(kept.lines[0]!) as { name: string };
  entry.name = "marked in the cache";
  kept.lines[0] = JSON.stringify(entry);
  writeKept(cache, path, kept);
}
// Writes a file's kept cache, with where its entries' lines end made anew where it has them (a
// large file's, read lazily) and its checksum (the fixture's): the cache as a build would have
// kept it, not a damaged one.
function writeKept(cache: EntryFileCache, path: string, kept: KeptCacheFile): void {
  if (kept.meta.columns !== undefined) {
    let end = 0;
    kept.meta.columns.lineEnds = kept.lines.map((line) => (end += Buffer.byteLength(`${line}\n`)));
  }
  writeKeptCacheFile(entryFileCachePath(cache, path), kept);
}

describe("a file that grew since it was kept", () => {
  it("is parsed from its last kept entry on, and gives what parsing it whole gives", async () => {
    const { cache, heuristics, read } = realSources();
    await read();
    const before = keptTail(cache, heuristics)!;
    expect(before.bytes).toBe(readFileSync(heuristics).length);
    appendFileSync(heuristics, LEARNING);
    const grown = await read();
    expect(plain(grown.local)).toEqual(plain((await read(false)).local));
    expect(grown.local.at(-1)!.name).toBe("Check the retry budget first");
    expect(grown.warnings).toEqual((await read(false)).warnings);
    // The tail kept now starts at the learning appended, found from the earlier one.
    const after = keptTail(cache, heuristics)!;
    expect([after.bytes, after.resume.filePosition, after.resume.line]).toEqual([readFileSync(heuristics).length, before.resume.filePosition + 1, grown.local.at(-1)!.origin.line]);
    expect(readFileSync(heuristics, "utf8").slice(after.resume.offset).startsWith("### Heuristic: Check the retry budget first\n")).toBe(true);
  });

  it("takes the entries before the last kept one from the cache, not from the file", async () => {
    const { cache, heuristics, read } = realSources();
    await read();
    markFirstKeptEntry(cache, heuristics);
    appendFileSync(heuristics, LEARNING);
    const names = (await read()).local.map((entry) => entry.name);
    expect(names).toContain("marked in the cache");
    expect(names).toContain("Check the retry budget first");
  });

  it("is parsed whole when it changed before its end too, or shrank, or is small (below LARGE_FILE_BYTES, the default)", async () => {
    for (const change of ["middle", "shrank", "small"] as const) {
      const { cache, heuristics, read } = realSources(change === "small" ? {} : { largeFileBytes: 0 });
      // Small: its first five entries.
      if (change === "small") writeFileSync(heuristics, readFileSync(heuristics, "utf8").split("\n### ").slice(0, 6).join("\n### "));
      if (change === "small") expect(statSync(heuristics).size).toBeLessThan(LARGE_FILE_BYTES);
      await read();
      if (change === "small") expect(keptTail(cache, heuristics)).toBeUndefined();
      markFirstKeptEntry(cache, heuristics);
      const text = readFileSync(heuristics, "utf8");
      if (change === "middle") writeFileSync(heuristics, text.replace("### Heuristic:", "### Heuristic: Edited") + LEARNING);
      if (change === "shrank") writeFileSync(heuristics, text.slice(0, text.lastIndexOf("\n### ") + 1));
      if (change === "small") appendFileSync(heuristics, LEARNING);
      const grown = await read();
      expect(grown.local.map((entry) => entry.name)).not.toContain("marked in the cache");
      expect(plain(grown.local)).toEqual(plain((await read(false)).local));
    }
  });

  it("reads bytes that are not UTF-8 before the point as a whole parse does, and a character cut at the kept end once completed", async () => {
    const { heuristics, read } = realSources();
    const text = readFileSync(heuristics);
    const second = text.indexOf("\n### ", text.indexOf("\n### ") + 1) + 1;
    // An invalid byte in the second entry; the file ends in the first byte of "é" (0xC3 0xA9).
    writeFileSync(heuristics, Buffer.concat([text.subarray(0, second + 4), Buffer.from([0xff]), text.subarray(second + 4), Buffer.from("\nCaf"), Buffer.from([0xc3])]));
    await read();
    appendFileSync(heuristics, Buffer.concat([Buffer.from([0xa9]), Buffer.from(LEARNING)]));
    const grown = await read();
    expect(plain(grown.local)).toEqual(plain((await read(false)).local));
    expect(grown.local.some((entry) => `${entry.description}\n${entry.metadataText}`.includes("Café"))).toBe(true);
  });

  it("redacts a secret appended, and keeps the warning of one redacted before", async () => {
    const { cache, heuristics, read } = realSources();
    const token = `ghp_${"a1B2c3D4e5".repeat(4).slice(0, 36)}`;
    const text = readFileSync(heuristics, "utf8");
    // A secret in the second entry: redacted when kept, its warning kept with it.
    const second = text.indexOf("\n### ", text.indexOf("\n### ") + 1) + 1;
    writeFileSync(heuristics, `${text.slice(0, text.indexOf("\n", second) + 1)}Token ${token} leaked here.\n${text.slice(text.indexOf("\n", second) + 1)}`);
    await read();
    appendFileSync(heuristics, `\n### Heuristic: Rotate tokens\nThe old one was ${token}.\n`);
    const grown = await read();
    const whole = await read(false);
    expect(plain(grown.local)).toEqual(plain(whole.local));
    expect(grown.warnings).toEqual(whole.warnings);
    expect(grown.warnings.filter((warning) => warning.message.includes("contains a secret"))).toHaveLength(2);
    expect(JSON.stringify(grown.local)).not.toContain(token);
  });

  it("is kept without a tail when a <!-- before its last entry is closed by no -->, and with one when it is", async () => {
    const { cache, heuristics, read } = realSources();
    const text = readFileSync(heuristics, "utf8");
    // Before the last entry, after the last --> (the bank's example comment is closed above).
    const at = text.lastIndexOf("\n### ") + 1;
    expect(text.lastIndexOf("-->")).toBeLessThan(at);
    writeFileSync(heuristics, `${text.slice(0, at)}<!-- a note never closed\n${text.slice(at)}`);
    await read();
    expect(keptTail(cache, heuristics)).toBeUndefined();
    // Closed by a --> appended: what was text before becomes a comment, which a whole parse sees.
    appendFileSync(heuristics, "still the note -->\n### Heuristic: After the note\nbody\n");
    const grown = await read();
    expect(plain(grown.local)).toEqual(plain((await read(false)).local));
    expect(keptTail(cache, heuristics)?.resume.line).toBe(grown.local.at(-1)!.origin.line);
  });

  it("is decoded from the line of its last kept entry on, kept in bytes past a BOM and characters of several bytes, learning after learning; with a carriage return before it, decoded whole", async () => {
    for (const form of ["bom", "crlf"] as const) {
      const { cache, heuristics, read } = realSources();
      const text = readFileSync(heuristics, "utf8");
      writeFileSync(heuristics, form === "bom" ? `\ufeff${text.replace("### Heuristic:", "### Heuristic: Größe → ")}` : text.replace("\n", "\r\n"));
      await read();
      for (let learning = 1; learning <= 3; learning++) {
        const tail = keptTail(cache, heuristics)!;
        const bytes = readFileSync(heuristics);
        if (form === "crlf") expect(tail.lineStart).toBeUndefined();
        // The kept line start is where the last entry's header line is, in bytes.
        else expect(bytes.subarray(tail.lineStart).toString("utf8").split("\n")[0]).toBe((await read(false)).local.at(-1)!.headerLine);
        appendFileSync(heuristics, LEARNING.replace("first", `first (${learning})`));
        const grown = await read();
        expect(plain(grown.local)).toEqual(plain((await read(false)).local));
        expect(grown.local.at(-1)!.name).toBe(`Check the retry budget first (${learning})`);
        expect(grown.warnings).toEqual((await read(false)).warnings);
      }
    }
  });

  it("decodes the bytes from the kept line start on when it is the last kept entry's header line, and whole when it is not", () => {
    const bytes = Buffer.from("\ufeff### Heuristic: Größe\nbody\n### Heuristic: Last\nbody\n### Heuristic: New\n");
    const at = bytes.indexOf("### Heuristic: Last");
    const resumed = { bytes: at + 29, checksum: 0, resume: { offset: 0, line: 3, filePosition: 2 }, lineStart: at };
    const kept = (headerLine: string) => ({ entries: [{ headerLine: "### Heuristic: Größe" }, { headerLine }] as Entry[] });
    expect(grownFileText(bytes, resumed, kept("### Heuristic: Last"))).toEqual({ text: "### Heuristic: Last\nbody\n### Heuristic: New\n", lineStart: at });
    const whole = { text: "### Heuristic: Größe\nbody\n### Heuristic: Last\nbody\n### Heuristic: New\n", lineStart: 0 };
    for (const [lineStart, headerLine] of [[at + 1, "### Heuristic: Last"], [at, "### Heuristic: Las"], [at, "### Heuristic: Other"], [0, "### Heuristic: Last"], [bytes.length, "### Heuristic: Last"]] as const) {
      expect(grownFileText(bytes, { ...resumed, lineStart }, kept(headerLine))).toEqual(whole);
    }
    expect(grownFileText(bytes, null, null)).toEqual(whole);
  });

  it("is decoded whole when the kept line start is not the line of its last kept entry (a damaged cache): another entry's header line, or inside a line", async () => {
    for (const damage of ["another entry", "inside a line", "past the end"] as const) {
      const { cache, heuristics, read } = realSources();
      await read();
      const kept = keptFile(cache, heuristics);
      const tail = kept.meta.tail as FileTail;
      const bytes = readFileSync(heuristics);
      tail.lineStart = damage === "another entry" ? bytes.indexOf("\n### ") + 1 : damage === "inside a line" ? tail.lineStart! + 5 : bytes.length + 10;
      writeKeptCacheFile(entryFileCachePath(cache, heuristics), kept);
      appendFileSync(heuristics, LEARNING);
      const grown = await read();
      expect(plain(grown.local)).toEqual(plain((await read(false)).local));
      expect(grown.warnings).toEqual((await read(false)).warnings);
    }
  });

  it("is parsed whole when the kept tail does not fit the kept entries (a damaged cache)", async () => {
    const { cache, heuristics, read } = realSources();
    await read();
    const kept = keptFile(cache, heuristics);
    (kept.meta.tail as FileTail).resume.filePosition += 1;
    writeKeptCacheFile(entryFileCachePath(cache, heuristics), kept);
    markFirstKeptEntry(cache, heuristics);
    appendFileSync(heuristics, LEARNING);
    const grown = await read();
    expect(grown.local.map((entry) => entry.name)).not.toContain("marked in the cache");
    expect(plain(grown.local)).toEqual(plain((await read(false)).local));
  });
});
