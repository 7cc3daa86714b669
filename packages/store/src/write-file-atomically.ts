import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync, writevSync } from "node:fs";
import { dirname } from "node:path";
import { errorMessage } from "./error-code.js";
import { encodeLossless } from "./lossless-utf8.js";
import { StoreError } from "./store-error.js";

/**
 * Writes a whole file so that readers see the old content or the new, never a torn one:
 * a temporary file beside it, fsync, rename. Text is written as `encodeLossless` writes it; bytes as they are. Creates its folder (mode 0700) if needed; the file
 * gets mode 0600 (memory can hold what a user would not share), or `mode` (a file in a user's
 * repository keeps the mode it had). `durable: false` skips the
 * fsync, for files that are cheap to lose in a power cut but written at every session start
 * (the tracking file, the injection cache); the rename still keeps them whole. `content` may be
 * given as pieces of text or of bytes (written one after the other, never joined whole: a cache
 * of many megabytes).
 *
 * @example
 * await writeFileAtomically("/home/ada/.claude/rules/iflow-memory.md", rules);
 * await writeFileAtomically(trackingPath(store), record, { durable: false });
 */
export async function writeFileAtomically(path: string, content: string | Uint8Array | readonly string[] | readonly Uint8Array[], options: { durable?: boolean; mode?: number } = {}): Promise<void> {
  // Synchronous on purpose: the hook writes its tracking file at every session start, where
  // loading fs/promises or a write library costs more than the write.
  const temporary = `${path}.iflow-${uniqueSuffix()}.tmp`;
  try {
    const descriptor = openCreating(temporary);
    try {
      if (options.mode !== undefined) fchmodSync(descriptor, options.mode);
      if (isBytePieces(content)) writeAllPieces(descriptor, content);
      else for (const bytes of encodedPieces(content)) for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written);
      if (options.durable !== false) fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // never created, or already renamed
    }
    throw new StoreError("STORE_WRITE_FAILED", `cannot write ${path}: ${errorMessage(error)}; nothing was changed`, { cause: error });
  }
}

function isBytePieces(content: string | Uint8Array | readonly string[] | readonly Uint8Array[]): content is readonly Uint8Array[] {
  return Array.isArray(content) && content.length > 0 && typeof content[0] !== "string";
}

// The most buffers one writev takes (Linux's IOV_MAX).
const IOV_MAX = 1024;

// Pieces of bytes (the lines of a cache of many megabytes) go to the file as they are, up to
// IOV_MAX at a time (writev): neither copied into batches nor thousands of writes. A write that
// takes part of them goes on from where it stopped.
function writeAllPieces(descriptor: number, pieces: readonly Uint8Array[]): void {
  for (let from = 0; from < pieces.length; from += IOV_MAX) {
    let batch = pieces.slice(from, from + IOV_MAX);
    let left = 0;
    for (const piece of batch) left += piece.length;
    while (left > 0) {
      let written = writevSync(descriptor, batch);
      left -= written;
      if (left === 0) break;
      let at = 0;
      while (written >= batch[at]!.length) written -= batch[at++]!.length;
      batch = [batch[at]!.subarray(written), ...batch.slice(at + 1)];
    }
  }
}

// Content given as pieces of text (lines of a cache of many megabytes) is encoded a megabyte or
// so at a time, so that neither the whole text nor its bytes are ever held at once.
function* encodedPieces(content: string | Uint8Array | readonly string[]): Generator<Uint8Array> {
  if (typeof content === "string") yield encodeLossless(content);
  else if (content instanceof Uint8Array) yield content;
  else {
    let batch: string[] = [];
    let length = 0;
    for (const piece of content as readonly string[]) {
      // A piece of a megabyte or more is encoded on its own, never copied into a batch.
      if (piece.length >= 1 << 20 && batch.length > 0) {
        yield encodeLossless(batch.join(""));
        batch = [];
        length = 0;
      }
      batch.push(piece);
      length += piece.length;
      if (length >= 1 << 20) {
        yield encodeLossless(batch.length === 1 ? piece : batch.join(""));
        batch = [];
        length = 0;
      }
    }
    if (batch.length > 0) yield encodeLossless(batch.join(""));
  }
}

/**
 * Opens a new file with an exclusive create (`wx`, or `ax` to append; mode 0600): throws EEXIST
 * when it is there already. Its folder (mode 0700) is made only when the open says it is missing,
 * never looked for first (at a session start it almost never is).
 *
 * @example
 * closeSync(openCreating(claimPath)); // EEXIST: another process made it first
 */
export function openCreating(path: string, flags: "wx" | "ax" = "wx"): number {
  try {
    return openSync(path, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return openSync(path, flags, 0o600);
  }
}

function uniqueSuffix(): string {
  return `${process.pid.toString(16)}${Date.now().toString(16)}${Math.floor(Math.random() * 0xffffffff).toString(16)}`;
}
