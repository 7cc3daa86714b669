import { join } from "node:path";
import type { Entry, ParseResume } from "@iflow-memory/parser";
import { LITTLE_ENDIAN, PackedTerms, plainEntry, type PackedEntryTerms } from "@iflow-memory/ranker";
import { crc32 } from "../crc32.js";
import { encodeLossless } from "../lossless-utf8.js";
import { readUserFile } from "../read-user-file.js";
import { SETTLE_MS } from "../settle-ms.js";
import { shortHash } from "../short-hash.js";
import type { StoreWarning } from "../store-warning.js";
import { writeFileAtomically } from "../write-file-atomically.js";
import { statOrNull } from "../stat-or-null.js";
import { isEntry, keptColumns, keptSpan, lazyEntries } from "./kept-entries.js";

/**
 * Where one memory file's entries are kept once read, and what makes them valid: `dir` is the
 * global store's `.cache` folder, `salt` what else the entries depend on (the tool's version and
 * build: a new parser reads the files anew).
 */
export interface EntryFileCache {
  dir: string;
  salt: string;
  /** The clock that tells whether a file has settled (tests); `Date.now` by default. */
  now?: () => number;
  /** Files of at least this many bytes are kept as large ones, with their `FileTail` and to be read lazily (tests); `LARGE_FILE_BYTES` by default. */
  largeFileBytes?: number;
  /** Take what is kept, keep nothing: for a reader that leaves keeping to another (a session start, to its background refresh; `inject`, to the process it starts). */
  readOnly?: boolean;
  /**
   * With `readOnly`: told of each file read anew that it would have kept (settled, and unchanged
   * while read), for the reader to start another that keeps it. Such a file's read gives its tail
   * as if it were kept (`MemoryFileRead.tail`, with no stamp: it is not).
   */
  unkept?: (path: string) => void;
  /**
   * Read the memory files, their stamps and what is kept of them in the calling thread, not on
   * libuv's threads: for a session start, whose process cannot exit before a read on those
   * threads returns (a deadline that ended the wait on it would not end the process sooner), and
   * which waited on them some 5 ms at a start after an edit of the real bank (a dozen files, a
   * few calls each). A server, whose other requests go on meanwhile, reads on libuv's threads.
   */
  inThread?: boolean;
}

/**
 * A large file's entries are kept with its tail — after an edit that only appended to it (a
 * learning added), the next read checks that the file still begins with the bytes kept and
 * parses it from its last entry on, not whole — and to be read lazily (`lazyEntries`: each
 * entry's line parsed at first use). Below this size (some twenty entries), parsing the whole
 * file costs a new process less than checking its tail; above it, reading lazily costs less (the
 * real bank's files of 55 to 60 KB, each of some ninety entries: a start after an edit 3.0 to
 * 3.2 × `node -e 0` read whole, 2.9 to 3.0 × lazily).
 */
export const LARGE_FILE_BYTES = 16 * 1024;

/**
 * What a read of the file as it grew needs (`readEntryFiles`): its length in bytes when kept, their
 * CRC-32, and where a parse of it may start again once more is appended (`resumePoint`).
 */
export interface FileTail {
  bytes: number;
  checksum: number;
  resume: ParseResume;
  /**
   * Where the resume point's line starts in the file's bytes, when the text before it is parsed
   * as it is decoded (no carriage return): a read after an edit that only appended decodes the
   * bytes from there on, not the whole file (at 5,000 entries, a file of 1 MB: 3.5 to 4.4 ms in a
   * new process, and 2 MB of text kept to the end).
   */
  lineStart?: number;
}

/** What a memory file gave: its entries (secrets redacted), the warnings of reading it and those of the secrets redacted. */
export interface FileEntries {
  entries: Entry[];
  warnings: StoreWarning[];
  redactions: StoreWarning[];
  /**
   * Per entry, the terms of its name, description and metadata for relevance, packed with the
   * file's (`PackedEntryTerms`: numbered in the file's vocabulary, grown as it is edited); in a
   * file read but not kept, only those known without tokenizing (`unchangedEntries`).
   */
  terms: (PackedEntryTerms | undefined)[];
  /** Kept for a large file: how a read after an edit that only appended to it parses the rest alone. */
  tail?: FileTail;
  /**
   * The file's stamp (`fileStamp`) when what was read is what is kept of it (null: there is no
   * file), so that what is worked out of it may be kept with it; absent when it was read but not
   * kept.
   */
  stamp?: string | null;
}

/** Changes with the layout of the cache files, so that an older layout is never read as this one. */
const FORMAT = 8;

/**
 * A file's state as one string (inode, size, modification and change times in nanoseconds) and
 * whether it has settled (no change within `SETTLE_MS`); null when it cannot be stated (missing:
 * nothing to cache). Any write, rename or permission change gives another stamp. With `inThread`,
 * stated in the calling thread (`EntryFileCache.inThread`).
 *
 * @example
 * await fileStamp("/work/webshop/docs/knowledge-bank/patterns.md"); // { stamp: "4194307:9120:…", settled: true }
 */
export async function fileStamp(path: string, now = Date.now(), inThread = false): Promise<{ stamp: string; settled: boolean } | null> {
  const info = await statOrNull(path, { inThread });
  if (info === null || !info.isFile()) return null;
  const settledBefore = BigInt(Math.floor(now - SETTLE_MS)) * 1_000_000n;
  return { stamp: `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`, settled: info.mtimeNs <= settledBefore && info.ctimeNs <= settledBefore };
}

/**
 * The cache file of the memory file at `path`, one per build (`cache.salt`): two builds sharing the
 * store — the plugin's hooks and an `iflow-memory` of another version — each keep their own instead
 * of taking the other's for stale and writing over it at every run. (A collision of names costs a
 * recomputation: the file names its path and salt.)
 */
export function entryFileCachePath(cache: EntryFileCache, path: string): string {
  return join(cache.dir, "files", `${shortHash(path)}-${shortHash(`${path}\0${cache.salt}`)}.json`);
}

// The first line says what the rest is: the file, its stamp, how it was read (`how`: scope,
// category and redaction), by which build and on a machine of which byte order — and, after a
// tab, the CRC-32 of every byte after that line, checked before any of them is trusted (a cache
// damaged on disk is read anew, never taken for other entries, terms or counts); the second holds
// the warnings, the file's vocabulary, how many entries it holds and the length of their terms,
// packed (`PackedTerms`), which follow it as bytes; then each entry has a line of its own
// (`entryLine`), so that an entry kept unchanged is written again as the bytes it was read from.
function header(cache: EntryFileCache, path: string, stamp: string, how: string): string {
  return JSON.stringify({ format: FORMAT, order: LITTLE_ENDIAN ? "le" : "be", salt: cache.salt, path, stamp, how });
}

/** Entries kept for a file (`readFileEntries`): for it as it is now, or for an earlier version of it. */
export interface KeptFileEntries extends FileEntries {
  terms: PackedEntryTerms[];
  /** Every entry's terms, in order: what `terms` point into. */
  packed: PackedTerms;
  /** Kept for the file as it is now (its stamp); false: for an earlier version of it, read the same way by the same build. */
  current: boolean;
}

/**
 * The entries kept for the file at `path`, read the same way (`how`) by the same build: for the
 * file as it is now when they were kept with its `stamp` (`current`), else for an earlier version
 * of it — what an edit left unchanged need not be redacted and tokenized again
 * (`unchangedEntries`). Null when there are none, they are another build's or way of
 * reading's, or the cache file is damaged.
 *
 * @example
 * const kept = await readFileEntries(cache, path, stamp, "local patterns redacted");
 * if (kept?.current === true) return kept;
 */
export async function readFileEntries(cache: EntryFileCache, path: string, stamp: string, how: string): Promise<KeptFileEntries | null> {
  // Ours, but read as a user file (regular files only, bounded, never waiting on a FIFO).
  const file = await readUserFile(entryFileCachePath(cache, path), { inThread: cache.inThread === true });
  if (!("bytes" in file)) return null;
  const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  const newline = bytes.indexOf(10);
  const second = newline < 0 ? -1 : bytes.indexOf(10, newline + 1);
  if (second < 0) return null;
  const { first, checksum } = firstLine(bytes.toString("utf8", 0, newline));
  const current = first === header(cache, path, stamp, how);
  try {
    if (!current && first !== header(cache, path, stampOf(JSON.parse(first) as unknown), how)) return null;
    if (crc32(bytes.subarray(newline + 1)) !== checksum) return null;
    const { warnings, redactions, vocabulary, count, termBytes, wideTerms, tail, columns } = JSON.parse(bytes.toString("utf8", newline + 1, second)) as Partial<KeptMeta>;
    if (!Array.isArray(warnings) || !Array.isArray(redactions) || typeof wideTerms !== "boolean" || !Number.isSafeInteger(count) || !Number.isSafeInteger(termBytes)) return null;
    if (!Array.isArray(vocabulary) || !vocabulary.every((term) => typeof term === "string")) return null;
    const linesFrom = second + 1 + termBytes!;
    if (termBytes! < 0 || linesFrom > bytes.length) return null;
    const termsBytes = bytes.subarray(second + 1, linesFrom);
    const lazy = columns === undefined ? null : lazyEntries(bytes.subarray(linesFrom), columns, count!);
    if (columns !== undefined && lazy === null) return null;
    // Checked with the rest (the CRC-32): the words are not checked one by one.
    const packed = PackedTerms.unpack(vocabulary, termsBytes, count!, wideTerms, true);
    if (packed === null) return null;
    const terms = packed.entryTerms();
    if (lazy !== null) return { entries: lazy, warnings, redactions, terms, packed, ...(fitsTail(tail, lazy) ? { tail } : {}), current };
    const entries: Entry[] = [];
    for (let start = linesFrom; start < bytes.length; ) {
      const end = bytes.indexOf(10, start);
      // A line cut short: the file was not written whole.
      if (end < 0) return null;
      const entry = JSON.parse(bytes.toString("utf8", start, end)) as unknown;
      // A line damaged into something else than an entry would fail every read after an edit.
      if (!isEntry(entry)) return null;
      KEPT_LINES.set(entry, bytes.subarray(start, end + 1));
      entries.push(entry);
      start = end + 1;
    }
    if (entries.length !== count) return null;
    return { entries, warnings, redactions, terms, packed, ...(fitsTail(tail, entries) ? { tail } : {}), current };
  } catch {
    return null;
  }
}

// The second line of a file's cache.
interface KeptMeta {
  warnings: StoreWarning[];
  redactions: StoreWarning[];
  /** The terms the entries' packed terms number. */
  vocabulary: string[];
  /** How many entries. */
  count: number;
  /** How many bytes of packed terms follow the line (`PackedTerms.packedBytes`), and whether their words are 32-bit. */
  termBytes: number;
  wideTerms: boolean;
  tail?: FileTail;
  /** A large file's, to read its entries lazily (`keptColumns`). */
  columns?: unknown;
}

// A tail that does not fit the entries (a damaged cache) is not used: the file is parsed whole.
function fitsTail(tail: unknown, entries: readonly Entry[]): tail is FileTail {
  return isTail(tail) && tail.resume.filePosition === entries.length && entries[entries.length - 1]!.origin.line === tail.resume.line;
}

/** Whether `value` is a `FileTail` (one kept elsewhere, read back). */
export function isTail(value: unknown): value is FileTail {
  if (value === null || typeof value !== "object") return false;
  const { bytes, checksum, resume } = value as Partial<FileTail>;
  if (resume === null || typeof resume !== "object") return false;
  const whole = (number: unknown, least: number) => Number.isSafeInteger(number) && (number as number) >= least;
  const { lineStart } = value as Partial<FileTail>;
  return whole(bytes, 0) && whole(checksum, 0) && whole(resume.offset, 0) && whole(resume.line, 1) && whole(resume.filePosition, 1) && (lineStart === undefined || whole(lineStart, 0));
}

// A cache file's first line: what it says the rest is, and the CRC-32 of the rest (NaN: none).
function firstLine(line: string): { first: string; checksum: number } {
  const tab = line.lastIndexOf("\t");
  return tab < 0 || !/^\d+$/.test(line.slice(tab + 1)) ? { first: line, checksum: Number.NaN } : { first: line.slice(0, tab), checksum: Number(line.slice(tab + 1)) };
}

// The stamp a cache file's first line names: with it, `header` gives that line again when the file
// was kept for this path, read this way, by this build.
function stampOf(first: unknown): string {
  const stamp = first !== null && typeof first === "object" ? (first as { stamp?: unknown }).stamp : undefined;
  return typeof stamp === "string" ? stamp : "";
}

/**
 * For each entry of a file read again (`entries`, not yet redacted), where an earlier version of
 * the file (`earlier`) holds the same entry — the same header line, name, description and
 * metadata — and it held no secret: its position there; else undefined. Such an entry holds no
 * secret now either (redaction puts `[REDACTED]` in every field it changes, and finds the same in
 * the same text), and its terms are those kept (`earlier.terms`): an edit that appends a learning
 * to a file of thousands redacts and tokenizes that one alone.
 *
 * @example
 * const unchanged = unchangedEntries(parsed.entries, kept);
 * redactEntriesRead(parsed, "the store", (at) => unchanged[at] !== undefined);
 */
export function unchangedEntries(entries: readonly Entry[], earlier: FileEntries): (number | undefined)[] {
  const byDescription = new Map<string, number[]>();
  earlier.entries.forEach((entry, at) => {
    if (REDACTED_FIELDS.some((field) => entry[field].includes(REDACTED))) return;
    const same = byDescription.get(entry.description);
    if (same === undefined) byDescription.set(entry.description, [at]);
    else same.push(at);
  });
  return entries.map((entry) => byDescription.get(entry.description)?.find((candidate) => REDACTED_FIELDS.every((field) => earlier.entries[candidate]![field] === entry[field])));
}

/**
 * The content hashes of kept entries by description, for `parseKnowledgeBank`'s `knownHashes`:
 * an entry's hash is that of its description as read, so a description redaction changed (it
 * holds `[REDACTED]`) is left out.
 *
 * @example
 * parseKnowledgeBank(text, { category, scope, path, knownHashes: keptContentHashes(kept) });
 */
export function keptContentHashes(kept: FileEntries): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const entry of kept.entries) if (!entry.description.includes(REDACTED)) hashes.set(entry.description, entry.contentHash);
  return hashes;
}

// The fields redaction reads (`redactEntry`): the others repeat their text.
const REDACTED_FIELDS = ["headerLine", "name", "description", "metadataText"] as const;
const REDACTED = "[REDACTED]";

/**
 * Keeps what the file at `path` gave while it had `stamp`, with its entries' terms (`packed`, in
 * their order), for the next read that finds it unchanged; with `lazy` (a large file), with the
 * columns its entries are read lazily from (`keptColumns`). Written whole or not at all; a cache
 * that cannot be written only costs speed.
 *
 * @example
 * await writeFileEntries(cache, path, stamp, "local patterns redacted", { entries, warnings, redactions, packed }, { lazy: false });
 */
export async function writeFileEntries(
  cache: EntryFileCache,
  path: string,
  stamp: string,
  how: string,
  read: Pick<FileEntries, "entries" | "warnings" | "redactions" | "tail"> & { packed: PackedTerms },
  options: { lazy: boolean },
): Promise<void> {
  if (read.packed.count !== read.entries.length) throw new Error(`${read.entries.length} entries kept with the terms of ${read.packed.count}`);
  const { pieces: lines, lengths } = entryLinePieces(read.entries);
  const terms = read.packed.packedBytes();
  const columns = options.lazy ? keptColumns(read.entries, lengths) : null;
  const meta: KeptMeta = {
    warnings: read.warnings,
    redactions: read.redactions,
    vocabulary: [...read.packed.vocabulary],
    count: read.entries.length,
    termBytes: terms.bytes.reduce((sum: number, piece: Uint8Array) => sum + piece.length, 0),
    wideTerms: terms.wide,
    ...(read.tail === undefined ? {} : { tail: read.tail }),
    ...(columns === null ? {} : { columns }),
  };
  const rest = [encodeLossless(`${JSON.stringify(meta)}\n`), ...terms.bytes, ...lines];
  await writeFileAtomically(entryFileCachePath(cache, path), [encodeLossless(`${header(cache, path, stamp, how)}\t${crc32(rest)}\n`), ...rest], { durable: false }).catch(() => undefined);
}

// The bytes of the lines entries were read from (`readFileEntries`), or of their like in an
// earlier version of their file (`keepLineOf`): entries are never changed once read. One map
// for every copy of this module in the process (the hook's bundles each hold one, and the lines
// one reads, another writes), whose lines are `JSON.stringify` of their entries whatever copy
// made them.
const KEPT_LINES = ((globalThis as Record<symbol, unknown>)[Symbol.for("iflow-memory: kept entry lines")] ??= new WeakMap<Entry, Uint8Array>()) as WeakMap<Entry, Uint8Array>;

/**
 * An entry on a line of its own, as a cache keeps it: `JSON.stringify` of it and a newline, in
 * UTF-8 — the bytes it was read from when it came from a file's cache (or is the same as an
 * entry that did), not encoded again.
 *
 * @example
 * writeFileAtomically(path, entries.map(entryLine));
 */
export function entryLine(entry: Entry): Uint8Array {
  return keptLine(entry) ?? encodeLossless(`${JSON.stringify(entry)}\n`);
}

// The bytes of the line an entry was read from, if it was read from a file's cache.
function keptLine(entry: Entry): Uint8Array | undefined {
  const span = keptSpan(entry);
  return span === undefined ? KEPT_LINES.get(entry) : span.bytes.subarray(span.start, span.end);
}

/**
 * `entryLine` of each entry, as few pieces as they allow: lines that follow one another in the
 * bytes they were read from (a large file's kept entries, in their order) make one piece, so that
 * a cache of thousands of them is written in a few; `lengths` has each line's length in bytes.
 *
 * @example
 * const { pieces, lengths } = entryLinePieces(entries);
 * writeFileAtomically(path, [firstLine, ...pieces]);
 */
export function entryLinePieces(entries: readonly Entry[]): { pieces: Uint8Array[]; lengths: number[] } {
  const pieces: Uint8Array[] = [];
  const lengths: number[] = [];
  // The span being gathered: its bytes, start and end.
  let bytes: Buffer | null = null;
  let start = 0;
  let end = 0;
  for (const entry of entries) {
    const span = keptSpan(entry);
    if (span !== undefined) {
      lengths.push(span.end - span.start);
      if (span.bytes === bytes && span.start === end) {
        end = span.end;
        continue;
      }
      if (bytes !== null) pieces.push(bytes.subarray(start, end));
      ({ bytes, start, end } = span);
      continue;
    }
    if (bytes !== null) pieces.push(bytes.subarray(start, end));
    bytes = null;
    const line = entryLine(entry);
    lengths.push(line.length);
    pieces.push(line);
  }
  if (bytes !== null) pieces.push(bytes.subarray(start, end));
  return { pieces, lengths };
}

/**
 * Lets `entry` (parsed anew) be written as the line `earlier` (read from a file's cache) was read
 * from, when the two are the same to JSON (every key, in the same order, with the same value):
 * an entry an edit left unchanged and where it was.
 *
 * @example
 * keepLineOf(read.entries[at], kept.entries[unchanged[at]]);
 */
export function keepLineOf(entry: Entry, earlier: Entry): void {
  const line = keptLine(earlier);
  if (line !== undefined && sameJson(entry, plainEntry(earlier))) KEPT_LINES.set(entry, line);
}

// Whether `JSON.stringify` gives the same text for both; false also for a few values it gives
// the same text for (undefined members, NaN), which only costs encoding again.
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at]!;
    if (key !== others[at] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
