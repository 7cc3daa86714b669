import { constants, statSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseKnowledgeBank, type Category, type Entry } from "@iflow-memory/parser";
import { sourceItems } from "@iflow-memory/ranker";
import type { FileWrite } from "../commit-files.js";
import { decodeLossless, encodeLossless } from "../lossless-utf8.js";
import { readUserFile, readUserFileSync } from "../read-user-file.js";
import { StoreError } from "../store-error.js";
import { appendGlobalEntry, recordObservation } from "./global-store-text.js";
import {
  contentChecksum,
  createPromotionIndex,
  findInPromotionIndex,
  promotionIndexPath,
  readPromotionIndex,
  updatePromotionIndex,
  writePromotionIndex,
  type FileStamp,
  type PromotionIndex,
} from "./promotion-index.js";

/** What promotion reads of a stored entry: how often it was observed, and by whom. */
export interface StoredObservations {
  observationCount: number;
  sources: string[];
}

export interface Observation {
  observationCount: number;
  lastObserved: string;
  source: string;
}

/**
 * One category file of the global store, opened for a promotion: finds entries by content hash,
 * takes the changes (an entry observed once more, new entries at the end), and gives the file's
 * new bytes, checked to read back as exactly what was meant. With a trusted promotion index
 * (see `readPromotionIndex`) an entry is found without parsing the file, and only the entries
 * that change are read, rewritten and read back; the rest of the file is copied as bytes. A file
 * without one (cold, or changed by another program), or whose text around a change could be read
 * differently in place than alone (a comment, a code fence, a carriage return), is parsed whole,
 * changed and read back whole.
 *
 * @example
 * const file = await openGlobalStoreFile(store, "patterns");
 * file.find("61c6a3e0b2d4f5a7"); // { observationCount: 2, sources: ["webshop, Feature #042"] }
 * file.append("0b5f…", formatGlobalEntry(fields));
 * file.change(); // { path, append, at }: the bytes appended, or null when nothing changed
 */
export async function openGlobalStoreFile(directory: string, category: Category): Promise<GlobalStoreFile> {
  const path = join(directory, `${category}.md`);
  const indexPath = promotionIndexPath(directory, category);
  // An index trusted without a look at the bytes (settled, or marked by its commit): only the
  // last byte is read now, the rest when a change needs it.
  const first = await stampOf(path);
  const found = first === null ? null : readPromotionIndex(indexPath, { stamp: first });
  if (first !== null && found !== null && found.unchecked !== true) {
    const last = await readLastByte(path, first);
    if (last !== undefined) return new GlobalStoreFile(category, path, indexPath, { size: Number(first.size), last }, first, found);
  }
  // Read as one version of the file: a file replaced while it was read is read again.
  for (let attempt = 1; ; attempt++) {
    const before = await stampOf(path);
    const file = await readUserFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}; fix or move it, then promote again`);
    const bytes = "bytes" in file ? Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) : Buffer.alloc(0);
    const after = await stampOf(path);
    if (attempt < 4 && !sameStamp(before, after)) continue;
    const stamp = sameStamp(before, after) ? after : null;
    if (stamp === null) return new GlobalStoreFile(category, path, indexPath, bytes, null, null);
    // The index found for the same stamp is checked against these bytes, not read again.
    let index: (PromotionIndex & { checksum: string }) | null;
    if (found === null || !sameStamp(first, stamp)) index = readPromotionIndex(indexPath, { bytes, stamp });
    else index = found.checksum === contentChecksum([bytes]) ? { records: found.records, openFence: found.openFence, openComment: found.openComment, checksum: found.checksum } : null;
    return new GlobalStoreFile(category, path, indexPath, bytes, stamp, index);
  }
}

// The file's last byte, read where its stamp says it ends; undefined when it cannot be (changed since, or unreadable).
async function readLastByte(path: string, stamp: FileStamp): Promise<number | null | undefined> {
  if (stamp.size === 0n) return null;
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => null);
  if (handle === null) return undefined;
  try {
    const info = await handle.stat({ bigint: true });
    if (!info.isFile() || !sameStamp(stamp, { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino })) return undefined;
    const byte = Buffer.alloc(1);
    return (await handle.read(byte, 0, 1, Number(stamp.size) - 1)).bytesRead === 1 ? byte[0]! : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

interface Region {
  offset: number;
  end: number;
  text: string;
}

interface NextFile {
  /** The new file in pieces; null when only `appended` is written (the file's bytes never read). */
  pieces: Buffer[] | null;
  size: number;
  index: PromotionIndex | null;
  checksum: string | null;
  /** When the file as read is kept as it was and only this added at its end: this. */
  appended?: Buffer;
}

interface ParsedFile {
  text: string;
  entries: Entry[];
  /** A code fence is open at the end of the file (the parser's only warning). */
  openFence: boolean;
  /** The first entry with a description of each content hash, by hash. */
  byHash: Map<string, Entry>;
}

export class GlobalStoreFile {
  private parsed: ParsedFile | null = null;
  private readonly regions = new Map<string, Region>();
  private readonly observations = new Map<string, Observation>();
  private readonly added: Array<{ contentHash: string; text: string }> = [];
  /** The file as `change` made it, the index that goes with it (null: none can be made) and its checksum when known. */
  private next: NextFile | null = null;

  private loaded: Buffer | null;
  private readonly size: number;
  private readonly last: number | null;

  constructor(
    readonly category: Category,
    readonly path: string,
    private readonly indexPath: string,
    /** The file's bytes, or (with a trusted index) its size and last byte (null: empty), the bytes read when a change needs them. */
    file: Buffer | { size: number; last: number | null },
    /** The stamp of the file (null: missing, or it kept changing while it was read). */
    private readonly stamp: FileStamp | null,
    private index: (PromotionIndex & { checksum: string }) | null,
  ) {
    this.loaded = Buffer.isBuffer(file) ? file : null;
    this.size = Buffer.isBuffer(file) ? file.length : file.size;
    this.last = Buffer.isBuffer(file) ? (file.length === 0 ? null : file[file.length - 1]!) : file.last;
  }

  // The file's bytes, read at the first need: they must be those of its stamp (the store is
  // locked; only another program can have changed it since), or nothing is promoted.
  private get bytes(): Buffer {
    if (this.loaded !== null) return this.loaded;
    const before = stampOfSync(this.path);
    const file = readUserFileSync(this.path);
    const after = stampOfSync(this.path);
    if (!("bytes" in file) || !sameStamp(before, this.stamp) || !sameStamp(after, this.stamp)) {
      throw new StoreError("STORE_WRITE_FAILED", `cannot promote into ${this.path}: another program changed it while it was promoted into; nothing was changed — promote again`);
    }
    this.loaded = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    return this.loaded;
  }

  /** The observations of the file's entry of this content hash (its first with a description), or undefined. */
  find(contentHash: string): StoredObservations | undefined {
    if (this.parsed === null && this.index !== null) {
      const offset = findInPromotionIndex(this.index, contentHash);
      if (offset === undefined) return undefined;
      const region = this.readRegion(offset);
      const entry = region === null ? undefined : readAlone(region.text, this.category, this.path);
      if (region !== null && entry?.contentHash === contentHash) {
        this.regions.set(contentHash, region);
        return observationsOf(entry);
      }
      // The index does not say what the file holds: trust neither, read the whole file.
      this.parseWhole();
    }
    const entry = this.parseWhole().byHash.get(contentHash);
    return entry === undefined ? undefined : observationsOf(entry);
  }

  /** Records that the entry of this content hash (found by `find`) was observed once more. */
  observe(contentHash: string, observation: Observation): void {
    this.observations.set(contentHash, observation);
  }

  /** Adds a new entry (`formatGlobalEntry`'s text) at the end of the file. */
  append(contentHash: string, text: string): void {
    this.added.push({ contentHash, text });
  }

  /**
   * The change to commit (`commitFiles`), or null when nothing changed: entries only added to a
   * file with a trusted index are bytes appended at its end; anything else is the file's new
   * bytes in pieces (to be written one after the other). Throws (STORE_WRITE_FAILED) when the
   * file would not read back as exactly what this promotion meant to write.
   */
  change(): FileWrite | null {
    if (this.observations.size === 0 && this.added.length === 0) return null;
    if (this.parsed === null && this.index !== null) this.next = this.changeInPlace(this.index);
    this.next ??= this.changeWhole();
    const { pieces, appended } = this.next;
    // Marked: the index made of it is trusted without a look at the bytes (see `saveIndex`).
    return appended === undefined ? { path: this.path, content: pieces!, mark: true } : { path: this.path, append: appended, at: this.size, mark: true };
  }

  /**
   * Saves the index of the file as it is now (after a commit of `change`, or as it was read),
   * when one was made for it, with the mark its commit gave it (`CommitResult.marks`); a file
   * changed since by someone else gets none.
   */
  async saveIndex(marked?: bigint): Promise<void> {
    let file: NextFile;
    if (this.next !== null) file = this.next;
    else if (this.parsed !== null && this.stamp !== null) file = { pieces: [this.bytes], size: this.size, index: indexOfParsed(this.bytes, this.parsed), checksum: null };
    else return;
    if (file.index === null) return;
    const stamp = await stampOf(this.path);
    if (stamp === null || (this.next === null ? !sameStamp(stamp, this.stamp) : stamp.size !== BigInt(file.size))) return;
    const checksum = file.checksum ?? contentChecksum(file.pieces!);
    await writePromotionIndex(this.indexPath, file.index, { checksum, stamp, marked });
  }

  // The bytes of the entry whose header starts at `offset`, up to the next heading line: what
  // `recordObservation` changes. Null when that text could be read differently alone than in
  // the file (a comment or a code fence could reach in or out of it).
  private readRegion(offset: number): Region | null {
    const end = nextHeading(this.bytes, offset);
    const text = decodeLossless(this.bytes.subarray(offset, end));
    return readsAlike(text) ? { offset, end, text } : null;
  }

  private parseWhole(): ParsedFile {
    if (this.parsed !== null) return this.parsed;
    const text = decodeLossless(this.bytes);
    const { entries, warnings } = parseKnowledgeBank(text, { category: this.category, scope: "global", path: this.path });
    const byHash = new Map<string, Entry>();
    for (const entry of entries) if (entry.description !== "" && !byHash.has(entry.contentHash)) byHash.set(entry.contentHash, entry);
    this.parsed = { text, entries, openFence: warnings.length > 0, byHash };
    this.index = null;
    return this.parsed;
  }

  // The changed entries rewritten in place and the new ones appended, each read back alone;
  // null when that cannot be trusted to be how the whole file reads (then `changeWhole`).
  private changeInPlace(index: PromotionIndex & { checksum: string }): NextFile | null {
    const appended = this.added.map((entry) => entry.text).join("\n");
    if (this.added.length > 0 && (index.records.length === 0 || index.openFence || (index.openComment && appended.includes("-->")))) return null;
    const edits: Array<{ offset: number; end: number; bytes: Buffer }> = [];
    for (const [contentHash, observation] of this.observations) {
      const region = this.regions.get(contentHash)!;
      const text = recordObservation(region.text, 1, observation);
      if (!readsAlike(text)) return null;
      const entry = readAlone(text, this.category, this.path);
      if (entry?.contentHash !== contentHash || entry.observationCount !== observation.observationCount) throw this.wouldNotReadBack();
      edits.push({ offset: region.offset, end: region.end, bytes: encodeLossless(text) });
    }
    edits.sort((a, b) => a.offset - b.offset);
    // Entries only added: the file's bytes are kept as they are, and not read.
    const pieces: Buffer[] = [];
    let copied = 0;
    for (const edit of edits) {
      pieces.push(this.bytes.subarray(copied, edit.offset), edit.bytes);
      copied = edit.end;
    }
    if (edits.length > 0) pieces.push(this.bytes.subarray(copied));
    let size = this.size + edits.reduce((sum, edit) => sum + edit.bytes.length - (edit.end - edit.offset), 0);
    const shifts = edits.map((edit) => ({ offset: edit.offset, by: edit.bytes.length - (edit.end - edit.offset) }));
    const added: Array<[string, number]> = [];
    let tail = { openFence: index.openFence, openComment: index.openComment };
    if (this.added.length > 0) {
      const base = size;
      const text = `${this.last === 0x0a ? "" : "\n"}\n${appended}`;
      const parsed = parseKnowledgeBank(text, { category: this.category, scope: "global", path: this.path });
      const actual = parsed.entries.map((entry) => `${entry.contentHash} ${entry.observationCount}`);
      if (actual.join("\n") !== this.added.map((entry) => `${entry.contentHash} 1`).join("\n")) throw this.wouldNotReadBack();
      const bytes = encodeLossless(text);
      for (const [hash, offset] of headerOffsets(bytes, parsed.entries)) added.push([hash, base + offset]);
      tail = { openFence: parsed.warnings.length > 0, openComment: text.includes("<!--") ? commentOpenAtEnd(text) : tail.openComment && !text.includes("-->") };
      pieces.push(bytes);
      size += bytes.length;
    }
    const next = { pieces, size, index: updatePromotionIndex(index, { shifts, added, tail }), checksum: null };
    if (edits.length > 0 || this.added.length === 0) return next;
    // Entries only appended: the checksum goes on from the file's, and only they are written.
    const appendedBytes = pieces[0]!;
    return { ...next, pieces: null, checksum: contentChecksum([appendedBytes], index.checksum), appended: appendedBytes };
  }

  // Whatever the names and texts held, the store must read back as exactly what this promotion
  // meant to write: every entry it had, with only the counts it updated changed, then the entries
  // it added, each observed once. Anything else (an entry's text that opens a comment or a code
  // fence the next entry falls into, a forged header) is refused before a byte is written.
  private changeWhole(): NextFile {
    const parsed = this.parseWhole();
    const counts = new Map<number, number>();
    let text = parsed.text;
    const updates = [...this.observations].map(([contentHash, observation]) => ({ line: parsed.byHash.get(contentHash)!.origin.line, observation }));
    // Bottom-up, so that the line numbers of the updates still to make stay right.
    for (const { line, observation } of updates.sort((a, b) => b.line - a.line)) {
      text = recordObservation(text, line, observation);
      counts.set(line, observation.observationCount);
    }
    if (this.added.length > 0) text = appendGlobalEntry(text, this.category, this.added.map((entry) => entry.text).join("\n"));
    const expected = [
      ...parsed.entries.map((entry) => `${entry.contentHash} ${counts.get(entry.origin.line) ?? entry.observationCount}`),
      ...this.added.map((entry) => `${entry.contentHash} 1`),
    ];
    const { entries: after, warnings } = parseKnowledgeBank(text, { category: this.category, scope: "global", path: this.path });
    const actual = after.map((entry) => `${entry.contentHash} ${entry.observationCount}`);
    if (actual.length !== expected.length || actual.some((line, at) => line !== expected[at])) throw this.wouldNotReadBack();
    const bytes = encodeLossless(text);
    return { pieces: [bytes], size: bytes.length, index: indexOfParsed(bytes, { text, entries: after, openFence: warnings.length > 0 }), checksum: null };
  }

  private wouldNotReadBack(): StoreError {
    return new StoreError("STORE_WRITE_FAILED", `cannot promote into ${this.path}: the file would not read back as written (an entry's text opens a comment or a code fence that swallows what follows); nothing was changed — close it in the knowledge bank, then promote again`);
  }
}

function observationsOf(entry: Entry): StoredObservations {
  const source = Object.entries(entry.metadata).find(([key]) => key.toLowerCase() === "source")?.[1];
  return { observationCount: entry.observationCount, sources: sourceItems(source) };
}

// The one entry a region's text holds, parsed alone.
function readAlone(text: string, category: Category, path: string): Entry | undefined {
  const { entries } = parseKnowledgeBank(text, { category, scope: "global", path });
  return entries.length === 1 ? entries[0] : undefined;
}

// Text with no comment marker, no line that could open a code fence and no carriage return is
// read the same alone as in the file: nothing in it reaches past its ends, and nothing around it
// reaches in (its header line was read as a header, so no fence or comment was open there).
const readsAlike = (text: string) => !text.includes("<!--") && !text.includes("-->") && !text.includes("\r") && !/^ {0,3}[`~]/m.test(text);

// The file's last "<!--" has no "-->" at least four characters after it (where the scanner would
// look for the end of a comment opened there): a "-->" appended later would close it.
function commentOpenAtEnd(text: string): boolean {
  const open = text.lastIndexOf("<!--");
  return open >= 0 && text.lastIndexOf("-->") < open + 4;
}

// Where the first line after `offset` that is a heading ("# ", "## " or "### ") starts, or the end.
function nextHeading(bytes: Buffer, offset: number): number {
  const HASH = 0x23;
  const SPACE = 0x20;
  for (let newline = bytes.indexOf(0x0a, offset); newline >= 0; newline = bytes.indexOf(0x0a, newline + 1)) {
    let at = newline + 1;
    while (at - newline <= 3 && bytes[at] === HASH) at++;
    if (at > newline + 1 && bytes[at] === SPACE) return newline + 1;
  }
  return bytes.length;
}

// (hash, byte offset of the header line) of the first entry with a description of each hash;
// the entries' line numbers count "\n" only (a text with "\r" has no index).
function headerOffsets(bytes: Buffer, entries: readonly Entry[]): Array<[string, number]> {
  const seen = new Set<string>();
  const offsets: Array<[string, number]> = [];
  let line = 1;
  let offset = 0;
  for (const entry of entries) {
    while (line < entry.origin.line && offset >= 0) {
      offset = bytes.indexOf(0x0a, offset) + 1;
      line++;
      if (offset === 0) offset = -1;
    }
    if (offset < 0) break;
    if (entry.description === "" || seen.has(entry.contentHash)) continue;
    seen.add(entry.contentHash);
    offsets.push([entry.contentHash, offset]);
  }
  return offsets;
}

// The index of a file parsed whole; none for a file with a carriage return, whose parsed line
// numbers are not its lines.
function indexOfParsed(bytes: Buffer, parsed: { text: string; entries: readonly Entry[]; openFence: boolean }): PromotionIndex | null {
  if (bytes.includes(0x0d)) return null;
  return createPromotionIndex(headerOffsets(bytes, parsed.entries), { openFence: parsed.openFence, openComment: commentOpenAtEnd(parsed.text) });
}

async function stampOf(path: string): Promise<FileStamp | null> {
  const info = await stat(path, { bigint: true }).catch(() => null);
  return info === null ? null : { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino };
}

function stampOfSync(path: string): FileStamp | null {
  const info = statSync(path, { bigint: true, throwIfNoEntry: false });
  return info === undefined ? null : { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino };
}

function sameStamp(a: FileStamp | null, b: FileStamp | null): boolean {
  return a === null || b === null ? a === b : a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}
