import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
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
      for (const bytes of encodedPieces(content)) for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written);
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

// Content given in pieces (lines of a cache of many megabytes) is encoded a megabyte or so at a
// time, so that neither the whole text nor its bytes are ever held at once; pieces of bytes are
// gathered a megabyte or so at a time, so that thousands of lines are not thousands of writes.
function* encodedPieces(content: string | Uint8Array | readonly string[] | readonly Uint8Array[]): Generator<Uint8Array> {
  if (typeof content === "string") yield encodeLossless(content);
  else if (content instanceof Uint8Array) yield content;
  else if (content.length > 0 && typeof content[0] !== "string") {
    let batch: Uint8Array[] = [];
    let length = 0;
    for (const piece of content as readonly Uint8Array[]) {
      batch.push(piece);
      length += piece.length;
      if (length >= 1 << 20) {
        yield batch.length === 1 ? piece : Buffer.concat(batch, length);
        batch = [];
        length = 0;
      }
    }
    if (batch.length > 0) yield Buffer.concat(batch, length);
  } else {
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

// The folder is made only when it is missing: at a session start it almost never is.
function openCreating(path: string): number {
  try {
    return openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return openSync(path, "wx", 0o600);
  }
}

function uniqueSuffix(): string {
  return `${process.pid.toString(16)}${Date.now().toString(16)}${Math.floor(Math.random() * 0xffffffff).toString(16)}`;
}
