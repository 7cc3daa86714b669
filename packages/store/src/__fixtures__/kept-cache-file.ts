import { readFileSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";

// A memory file's cache (`writeFileEntries`) taken apart and put together again, for tests that
// read or damage what it keeps: its header line (what it says the rest is, and the CRC-32 of the
// rest), its second line (parsed), each entry's terms as lists of positions of the vocabulary
// (from the packed bytes after the second line), and the entries' lines (text, without their
// newlines).

export interface KeptCacheFile {
  header: string;
  /** The CRC-32 of what follows the header line, as kept. */
  checksum: number;
  meta: { warnings: unknown[]; redactions: unknown[]; vocabulary: string[]; count: number; termBytes: number; wideTerms: boolean; tail?: unknown; columns?: Record<string, unknown> };
  terms: number[][][];
  lines: string[];
}

export function readKeptCacheFile(path: string): KeptCacheFile {
  const bytes = readFileSync(path);
  const first = bytes.indexOf(10);
  const second = bytes.indexOf(10, first + 1);
  const meta = JSON.parse(bytes.toString("utf8", first + 1, second)) as KeptCacheFile["meta"];
  const packed = bytes.subarray(second + 1, second + 1 + meta.termBytes);
  const read = (at: number, size: number) => (size === 4 ? packed.readUInt32LE(at) : packed.readUInt16LE(at));
  const startsBytes = (meta.count * 3 + 1) * 4;
  const size = meta.wideTerms ? 4 : 2;
  const terms = Array.from({ length: meta.count }, (_, entry) =>
    [0, 1, 2].map((field) => {
      const from = read((entry * 3 + field) * 4, 4);
      const to = read((entry * 3 + field + 1) * 4, 4);
      return Array.from({ length: to - from }, (_, word) => read(startsBytes + (from + word) * size, size));
    }),
  );
  const lines = bytes.toString("utf8", second + 1 + meta.termBytes).split("\n").slice(0, -1);
  const [header, checksum] = bytes.toString("utf8", 0, first).split("\t");
  return { header: header!, checksum: Number(checksum), meta, terms, lines };
}

/**
 * The cache file's bytes: `terms` packed as they are (damaged too), 32-bit when a position needs
 * it; the header line with the CRC-32 of the rest as it now is (a cache written so by the build),
 * or with `resign: false` the one kept (a cache damaged on disk).
 */
export function keptCacheFileBytes(kept: KeptCacheFile, { resign = true }: { resign?: boolean } = {}): Buffer {
  const wide = kept.terms.some((fields) => fields.some((field) => field.some((at) => at > 0xffff)));
  const words = kept.terms.flat(2);
  const size = wide ? 4 : 2;
  const packed = Buffer.alloc((kept.terms.length * 3 + 1) * 4 + words.length * size);
  let used = 0;
  kept.terms.forEach((fields, entry) =>
    fields.forEach((field, at) => {
      packed.writeUInt32LE(used, (entry * 3 + at) * 4);
      used += field.length;
    }),
  );
  packed.writeUInt32LE(used, kept.terms.length * 3 * 4);
  words.forEach((word, at) => (size === 4 ? packed.writeUInt32LE(word, (kept.terms.length * 3 + 1) * 4 + at * 4) : packed.writeUInt16LE(word, (kept.terms.length * 3 + 1) * 4 + at * 2)));
  const meta = { ...kept.meta, count: kept.terms.length, termBytes: packed.length, wideTerms: wide };
  const rest = Buffer.concat([Buffer.from(`${JSON.stringify(meta)}\n`), packed, Buffer.from(kept.lines.map((line) => `${line}\n`).join(""))]);
  return Buffer.concat([Buffer.from(`${kept.header}\t${resign ? crc32(rest) : kept.checksum}\n`), rest]);
}

export function writeKeptCacheFile(path: string, kept: KeptCacheFile, options: { resign?: boolean } = {}): void {
  writeFileSync(path, keptCacheFileBytes(kept, options));
}
