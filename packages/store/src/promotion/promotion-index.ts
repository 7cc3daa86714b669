import { createHash } from "node:crypto";
import { join } from "node:path";
import * as zlib from "node:zlib";
import type { Category } from "@iflow-memory/parser";
import { SETTLE_MS, storeCacheDir } from "../injection-cache.js";
import { readUserFileSync } from "../read-user-file.js";
import { writeFileAtomically } from "../write-file-atomically.js";

/** Bumped whenever what an index says, or how it is written, changes: an index of another version is rebuilt. */
export const PROMOTION_INDEX_VERSION = 1;

const MAGIC = "iflow-memory promotion index\n";
// One record a line: 16 hex digits of content hash, a space, the byte offset in 12 digits.
const RECORD_BYTES = 30;

/**
 * What promotion needs to know of one global-store file without parsing it: where the entry of
 * each content hash starts (the first entry with a description of that hash, as the parser reads
 * the file), and whether text appended at its end could be read as part of what is already there.
 */
export interface PromotionIndex {
  /** The records, sorted by hash (`RECORD_BYTES` each), searched in place. */
  records: Buffer;
  /** The file ends inside a code fence that is never closed: whatever is appended is read as code. */
  openFence: boolean;
  /** The file's last `<!--` has no `-->` after it: an appended `-->` would turn it into a comment. */
  openComment: boolean;
}

/** The identity of a file's bytes as its stat gives it: any write, rename or replacement changes it. */
export interface FileStamp {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
}

/**
 * Where the promotion index of a global-store file is kept: in the store's cache folder, which
 * holds only what can be worked out again.
 *
 * @example
 * promotionIndexPath("/home/ada/.claude/iflow/memory", "patterns"); // "…/memory/.cache/promotion-patterns.idx"
 */
export function promotionIndexPath(globalStoreDir: string, category: Category): string {
  return join(storeCacheDir(globalStoreDir), `promotion-${category}.idx`);
}

/**
 * An index from (hash, byte offset) pairs and the file's tail state.
 *
 * @example
 * createPromotionIndex([["61c6a3e0b2d4f5a7", 210]], { openFence: false, openComment: false });
 */
export function createPromotionIndex(entries: ReadonlyArray<readonly [hash: string, offset: number]>, tail: { openFence: boolean; openComment: boolean }): PromotionIndex {
  const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const records = Buffer.allocUnsafe(sorted.length * RECORD_BYTES);
  sorted.forEach(([hash, offset], at) => records.write(`${hash} ${String(offset).padStart(12, "0")}\n`, at * RECORD_BYTES, "latin1"));
  return { records, ...tail };
}

/** Every (hash, offset) pair of an index, in hash order. */
export function promotionIndexEntries(index: PromotionIndex): Array<[string, number]> {
  const entries: Array<[string, number]> = [];
  for (let at = 0; at < index.records.length; at += RECORD_BYTES) {
    entries.push([index.records.toString("latin1", at, at + 16), Number(index.records.toString("latin1", at + 17, at + 29))]);
  }
  return entries;
}

/**
 * The byte offset of the entry whose content hash is `hash`, or undefined: a binary search of
 * the records, which are never parsed as a whole.
 *
 * @example
 * findInPromotionIndex(index, "61c6a3e0b2d4f5a7"); // 210
 */
export function findInPromotionIndex(index: PromotionIndex, hash: string): number | undefined {
  const wanted = Buffer.from(hash, "latin1");
  if (wanted.length !== 16) return undefined;
  let low = 0;
  let high = index.records.length / RECORD_BYTES - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const order = index.records.compare(wanted, 0, 16, middle * RECORD_BYTES, middle * RECORD_BYTES + 16);
    if (order === 0) return Number(index.records.toString("latin1", middle * RECORD_BYTES + 17, middle * RECORD_BYTES + 29));
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

interface IndexHeader {
  version: number;
  stamp: string;
  /** When the index was written (ms since the epoch). */
  written: number;
  /** The checksum of the file's bytes the index was made from, and of the records. */
  checksum: string;
  content: string;
  body: string;
  records: number;
  openFence: boolean;
  openComment: boolean;
}

/**
 * The index of a file as it is now, or null when there is none that can be trusted: missing,
 * damaged (its records do not match their checksum), of another version, or stale (made from
 * other bytes than the file's: its stamp differs). A file changed within `SETTLE_MS` of the
 * index being written could have changed again in the same clock tick without its stamp
 * changing (git's "racily clean" case): then the file's bytes must also match the checksum the
 * index was made from.
 *
 * @example
 * readPromotionIndex(promotionIndexPath(store, "patterns"), { bytes, stamp }) ?? rebuild();
 */
export function readPromotionIndex(path: string, file: { bytes: Uint8Array; stamp: FileStamp }): PromotionIndex | null {
  const read = readUserFileSync(path, { maxBytes: 1024 * 1024 * 1024 });
  if (!("bytes" in read)) return null;
  const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  if (bytes.toString("latin1", 0, MAGIC.length) !== MAGIC) return null;
  const headerEnd = bytes.indexOf(0x0a, MAGIC.length);
  if (headerEnd < 0) return null;
  let header: Partial<IndexHeader>;
  try {
    header = JSON.parse(bytes.toString("utf8", MAGIC.length, headerEnd)) as Partial<IndexHeader>;
  } catch {
    return null;
  }
  if (header.version !== PROMOTION_INDEX_VERSION || header.checksum !== CHECKSUM.name || typeof header.written !== "number") return null;
  const records = bytes.subarray(headerEnd + 1);
  if (header.records !== records.length / RECORD_BYTES || header.body !== CHECKSUM.of(records)) return null;
  if (header.stamp !== stampText(file.stamp)) return null;
  const settledBefore = BigInt(Math.floor(header.written - SETTLE_MS)) * 1_000_000n;
  const settled = file.stamp.mtimeNs < settledBefore && file.stamp.ctimeNs < settledBefore;
  if (!settled && header.content !== CHECKSUM.of(file.bytes)) return null;
  return { records, openFence: header.openFence === true, openComment: header.openComment === true };
}

/**
 * Writes the index of a file whose bytes and stamp are given (a failure only costs a rebuild at
 * the next promotion, so it is not durable and never throws).
 *
 * @example
 * await writePromotionIndex(promotionIndexPath(store, "patterns"), index, { bytes, stamp });
 */
export async function writePromotionIndex(path: string, index: PromotionIndex, file: { bytes: Uint8Array; stamp: FileStamp }, now = Date.now()): Promise<void> {
  try {
    await writeFileAtomically(path, encodePromotionIndex(index, file, now), { durable: false });
  } catch {
    // a cache that cannot be written is rebuilt next time
  }
}

/**
 * An index as the text of its file (a first line, a header of JSON, the records: ASCII only), as
 * `readPromotionIndex` reads it; `version` is for the tests of an index of another version.
 */
export function encodePromotionIndex(index: PromotionIndex, file: { bytes: Uint8Array; stamp: FileStamp }, now: number, version = PROMOTION_INDEX_VERSION): string {
  const header: IndexHeader = {
    version,
    stamp: stampText(file.stamp),
    written: now,
    checksum: CHECKSUM.name,
    content: CHECKSUM.of(file.bytes),
    body: CHECKSUM.of(index.records),
    records: index.records.length / RECORD_BYTES,
    openFence: index.openFence,
    openComment: index.openComment,
  };
  return `${MAGIC}${JSON.stringify(header)}\n${index.records.toString("latin1")}`;
}

const stampText = (stamp: FileStamp) => `${stamp.size}:${stamp.mtimeNs}:${stamp.ctimeNs}:${stamp.ino}`;

// CRC-32 (zlib's, Node ≥ 20.15) reads the 18 MB of a 50,000-entry store in a few milliseconds;
// SHA-1 where it is missing. An index written with one is not read with the other.
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const CHECKSUM: { name: string; of: (data: Uint8Array) => string } =
  typeof crc32 === "function" ? { name: "crc32", of: (data) => crc32(data).toString(16) } : { name: "sha1", of: (data) => createHash("sha1").update(data).digest("hex") };
