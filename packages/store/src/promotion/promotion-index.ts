import { join } from "node:path";
import type { Category } from "@iflow-memory/parser";
import { crc32 } from "../crc32.js";
import { storeCacheDir } from "../caches/injection-cache.js";
import { SETTLE_MS } from "../settle-ms.js";
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

/**
 * The index of a file after a change that kept its entries where they were but moved them
 * (`shifts`: at `offset`, the bytes after grew by `by`; sorted by offset) and added entries
 * (`added`, hashes the index does not hold). The records are copied as bytes: only the offsets
 * that moved are rewritten, and each new record is put in its place by a binary search.
 *
 * @example
 * updatePromotionIndex(index, { shifts: [{ offset: 210, by: 24 }], added: [["0b5f…", 18_000_410]], tail });
 */
export function updatePromotionIndex(
  index: PromotionIndex,
  change: { shifts: ReadonlyArray<{ offset: number; by: number }>; added: ReadonlyArray<readonly [hash: string, offset: number]>; tail: { openFence: boolean; openComment: boolean } },
): PromotionIndex {
  let records = index.records;
  if (change.shifts.length > 0) {
    records = Buffer.from(records);
    // moved[i]: how far an entry after shifts[i] (and before shifts[i + 1]) moved.
    const moved: number[] = [];
    change.shifts.reduce((sum, shift) => (moved.push(sum + shift.by), sum + shift.by), 0);
    for (let at = 0; at < records.length; at += RECORD_BYTES) {
      let offset = 0;
      for (let digit = at + 17; digit < at + 29; digit++) offset = offset * 10 + records[digit]! - 0x30;
      let low = 0;
      let high = change.shifts.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (change.shifts[middle]!.offset < offset) low = middle + 1;
        else high = middle;
      }
      if (low > 0 && moved[low - 1] !== 0) records.write(String(offset + moved[low - 1]!).padStart(12, "0"), at + 17, "latin1");
    }
  }
  if (change.added.length > 0) {
    const added = createPromotionIndex(change.added, change.tail).records;
    const pieces: Buffer[] = [];
    let copied = 0;
    for (let at = 0; at < added.length; at += RECORD_BYTES) {
      const place = lowerBound(records, added.subarray(at, at + 16)) * RECORD_BYTES;
      pieces.push(records.subarray(copied, place), added.subarray(at, at + RECORD_BYTES));
      copied = place;
    }
    pieces.push(records.subarray(copied));
    records = Buffer.concat(pieces);
  }
  return { records, ...change.tail };
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
  const at = lowerBound(index.records, wanted) * RECORD_BYTES;
  if (at >= index.records.length || index.records.compare(wanted, 0, 16, at, at + 16) !== 0) return undefined;
  return Number(index.records.toString("latin1", at + 17, at + 29));
}

// The first record whose hash is not less than `hash`.
function lowerBound(records: Buffer, hash: Buffer): number {
  let low = 0;
  let high = records.length / RECORD_BYTES;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (records.compare(hash, 0, 16, middle * RECORD_BYTES, middle * RECORD_BYTES + 16) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
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
  /** The file's modification time (ns) as its commit marked it (`CommitResult.marks`), when the stamp holds it. */
  marked?: string;
}

/**
 * The index of a file as it is now, or null when there is none that can be trusted: missing,
 * damaged (its records do not match their checksum), of another version, or stale (made from
 * other bytes than the file's: its stamp differs). A file changed within `SETTLE_MS` of the
 * index being written could have changed again in the same clock tick without its stamp
 * changing (git's "racily clean" case): then the file's bytes must also match the checksum the
 * index was made from — unless the stamp's modification time is the mark its commit gave it,
 * which no later write leaves in place. Without `bytes`, an index that needs them comes with
 * `unchecked`: it is to be trusted only once `checksum` is that of the file's bytes.
 *
 * @example
 * readPromotionIndex(promotionIndexPath(store, "patterns"), { bytes, stamp }) ?? rebuild();
 */
export function readPromotionIndex(path: string, file: { bytes?: Uint8Array; stamp: FileStamp }): (PromotionIndex & { checksum: string; unchecked?: true }) | null {
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
  if (header.version !== PROMOTION_INDEX_VERSION || header.checksum !== CHECKSUM_NAME || typeof header.written !== "number" || typeof header.content !== "string") return null;
  const records = bytes.subarray(headerEnd + 1);
  if (header.records !== records.length / RECORD_BYTES || header.body !== contentChecksum([records])) return null;
  if (header.stamp !== stampText(file.stamp)) return null;
  const settledBefore = BigInt(Math.floor(header.written - SETTLE_MS)) * 1_000_000n;
  const settled = (file.stamp.mtimeNs < settledBefore && file.stamp.ctimeNs < settledBefore) || header.marked === String(file.stamp.mtimeNs);
  const index = { records, openFence: header.openFence === true, openComment: header.openComment === true, checksum: header.content };
  if (settled) return index;
  if (file.bytes === undefined) return { ...index, unchecked: true };
  return header.content === contentChecksum([file.bytes]) ? index : null;
}

/**
 * Writes the index of a file whose checksum (`contentChecksum`) and stamp are given, and the mark
 * its commit gave it (recorded only when the stamp holds it; see `readPromotionIndex`) (a failure
 * only costs a rebuild at the next promotion, so it is not durable and never throws).
 *
 * @example
 * await writePromotionIndex(promotionIndexPath(store, "patterns"), index, { checksum: contentChecksum([bytes]), stamp });
 */
export async function writePromotionIndex(path: string, index: PromotionIndex, file: { checksum: string; stamp: FileStamp; marked?: bigint | undefined }, now = Date.now()): Promise<void> {
  try {
    await writeFileAtomically(path, encodePromotionIndex(index, file, now), { durable: false });
  } catch {
    // a cache that cannot be written is rebuilt next time
  }
}

/**
 * An index as the bytes of its file (a first line, a header of JSON, the records), as
 * `readPromotionIndex` reads it; `version` is for the tests of an index of another version.
 */
export function encodePromotionIndex(index: PromotionIndex, file: { checksum: string; stamp: FileStamp; marked?: bigint | undefined }, now: number, version = PROMOTION_INDEX_VERSION): Buffer {
  const header: IndexHeader = {
    version,
    stamp: stampText(file.stamp),
    written: now,
    checksum: CHECKSUM_NAME,
    content: file.checksum,
    body: contentChecksum([index.records]),
    records: index.records.length / RECORD_BYTES,
    openFence: index.openFence,
    openComment: index.openComment,
    ...(file.marked !== undefined && file.marked === file.stamp.mtimeNs ? { marked: String(file.marked) } : {}),
  };
  return Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`, "utf8"), index.records]);
}

const stampText = (stamp: FileStamp) => `${stamp.size}:${stamp.mtimeNs}:${stamp.ctimeNs}:${stamp.ino}`;

// CRC-32 (`crc32`: zlib's past 1 MB) reads the 18 MB of a 50,000-entry store in a few
// milliseconds, and goes on from the checksum of what came before (a file with entries appended).
// An index written with another checksum (SHA-1, where an earlier version found no CRC-32) is not read.
const CHECKSUM_NAME = "crc32";

/**
 * The checksum of bytes given in pieces, as an index records it; with `previous`, of bytes that
 * follow others whose checksum it is.
 *
 * @example
 * contentChecksum([bytes, appended]) === contentChecksum([appended], contentChecksum([bytes])); // true
 */
export function contentChecksum(pieces: readonly Uint8Array[], previous?: string): string {
  return crc32(pieces, previous === undefined ? 0 : Number.parseInt(previous, 16)).toString(16);
}
