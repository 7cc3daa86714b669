import { close, closeSync, constants, fstat, fstatSync, open, openSync, read, readSync, stat, statSync, type Stats } from "node:fs";
import type { StoreWarning } from "./store-warning.js";

/** Files larger than this are skipped with a warning rather than read into memory. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file's bytes, or that it is missing, or why it was skipped. */
export type UserFileResult = { bytes: Uint8Array } | { missing: true } | { warning: StoreWarning };

export interface UserFileOptions {
  /** The most bytes read; a larger file is skipped with a warning. Default `MAX_FILE_BYTES`. */
  maxBytes?: number;
  /**
   * Read in the calling thread (`readUserFileSync`), not on libuv's: for a reader whose process
   * cannot exit before a read on libuv's threads returns anyway (see `EntryFileCache.inThread`).
   */
  inThread?: boolean;
}

/**
 * Reads a file that a user (or anyone who can write where it lives) controls, off the calling
 * thread: only a regular file (after following symbolic links), and never more than
 * `maxBytes`. A FIFO, a device, a socket or a directory is skipped with a warning naming what
 * it is, without waiting on it; a missing file is `{ missing: true }`; nothing throws. The
 * waits are libuv's, so a caller's deadline can end them: a file on a mount that stopped
 * answering holds one of libuv's threads, not the caller's (though no process can exit while
 * one of its threads waits on the kernel). With `inThread`, read as `readUserFileSync` reads.
 *
 * @example
 * await readUserFile("docs/knowledge-bank/heuristics.md");
 * // { bytes: Uint8Array(…) }, or { warning: { path, message: "is a FIFO, not a file; skipped" } }
 */
export function readUserFile(path: string, options: UserFileOptions = {}): Promise<UserFileResult> {
  if (options.inThread === true) return Promise.resolve(readUserFileSync(path, options));
  const steps = readSteps(path, options.maxBytes ?? MAX_FILE_BYTES);
  return new Promise((resolve, reject) => {
    const advance = (error: NodeJS.ErrnoException | null, value?: unknown): void => {
      let next: IteratorResult<FileCall, UserFileResult>;
      try {
        next = error === null ? steps.next(value) : steps.throw(error);
      } catch (bug) {
        reject(bug as Error);
        return;
      }
      if (next.done) resolve(next.value);
      else callAsync(next.value, advance);
    };
    advance(null);
  });
}

/**
 * `readUserFile` in the calling thread, for the few readers that cannot wait: the session-start
 * hook's warm path and the small state files read between two writes. The same checks and
 * warnings; a FIFO or a device never blocks it, but a mount that stopped answering does.
 *
 * @example
 * const file = readUserFileSync(join(globalStoreDir, ".cache", "injection-1a2b3c4d.json"));
 * if ("bytes" in file) file.bytes.byteLength; // 9120
 */
export function readUserFileSync(path: string, options: UserFileOptions = {}): UserFileResult {
  const steps = readSteps(path, options.maxBytes ?? MAX_FILE_BYTES);
  let next = steps.next();
  while (!next.done) {
    let value: unknown;
    let failure: NodeJS.ErrnoException | null = null;
    try {
      value = callSync(next.value);
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
    }
    next = failure === null ? steps.next(value) : steps.throw(failure);
  }
  return next.value;
}

// Without O_NONBLOCK, opening a FIFO waits for a writer and reading a device may wait forever;
// with it, both return at once (and a regular file reads as it always does). O_NOCTTY: a
// terminal opened here never becomes the process's controlling terminal. (Neither exists on
// Windows, which has no FIFOs or device files at such paths.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** One file-system call of a read; a driver runs it, synchronously or on libuv's threads. */
type FileCall =
  | { name: "stat"; path: string }
  | { name: "open"; path: string }
  | { name: "fstat"; descriptor: number }
  | { name: "read"; descriptor: number; buffer: Buffer; offset: number }
  | { name: "close"; descriptor: number };

// The read itself, written once for both drivers: each `yield` is a call the driver makes,
// resuming with its result or throwing its error here.
function* readSteps(path: string, maxBytes: number): Generator<FileCall, UserFileResult, unknown> {
  let descriptor: number | undefined;
  try {
    // Looked at before opening, so that a device is never opened (opening one can act: a tape
    // rewinds, a serial line hangs up)…
    const before = (yield { name: "stat", path }) as Stats;
    if (!before.isFile()) return notAFile(path, before);
    descriptor = (yield { name: "open", path }) as number;
    // …and the opened file again: the path may have been replaced in between.
    const info = (yield { name: "fstat", descriptor }) as Stats;
    if (!info.isFile()) return notAFile(path, info);
    if (info.size > maxBytes) return { warning: { path, message: `is ${info.size} bytes, over the ${maxBytes}-byte limit; skipped` } };
    // Read until the end, one byte past the limit at most: a file that grows while it is read,
    // or that gives a smaller size than it holds (/proc), cannot fill the memory.
    let buffer = Buffer.allocUnsafe(Math.min(Math.max(info.size, 16 * 1024), maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { warning: { path, message: `is over the ${maxBytes}-byte limit; skipped` } };
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(larger);
        buffer = larger;
      }
      const count = (yield { name: "read", descriptor, buffer, offset: length }) as number;
      if (count === 0) return { bytes: buffer.subarray(0, length) };
      length += count;
    }
  } catch (error) {
    return failure(path, error as NodeJS.ErrnoException);
  } finally {
    if (descriptor !== undefined) yield { name: "close", descriptor };
  }
}

function notAFile(path: string, info: Stats): UserFileResult {
  const kind = info.isDirectory()
    ? "a directory"
    : info.isFIFO()
      ? "a FIFO"
      : info.isCharacterDevice()
        ? "a character device"
        : info.isBlockDevice()
          ? "a block device"
          : info.isSocket()
            ? "a socket"
            : "something else";
  return { warning: { path, message: `is ${kind}, not a file; skipped` } };
}

function failure(path: string, error: NodeJS.ErrnoException): UserFileResult {
  switch (error.code) {
    case "ENOENT":
      return { missing: true };
    case "ENOTDIR":
      return { warning: { path, message: "its folder is a file, not a directory; skipped" } };
    case "ELOOP":
      return { warning: { path, message: "is a loop of symbolic links; skipped" } };
    default:
      return { warning: { path, message: `cannot be read (${error.code ?? error.message}); skipped` } };
  }
}

function callSync(call: FileCall): unknown {
  switch (call.name) {
    case "stat":
      return statSync(call.path);
    case "open":
      return openSync(call.path, OPEN_FLAGS);
    case "fstat":
      return fstatSync(call.descriptor);
    case "read":
      return readSync(call.descriptor, call.buffer, call.offset, call.buffer.length - call.offset, null);
    case "close":
      try {
        closeSync(call.descriptor);
      } catch {
        // nothing was written through it: a failed close loses nothing
      }
      return undefined;
  }
}

function callAsync(call: FileCall, done: (error: NodeJS.ErrnoException | null, value?: unknown) => void): void {
  switch (call.name) {
    case "stat":
      return stat(call.path, done);
    case "open":
      return open(call.path, OPEN_FLAGS, done);
    case "fstat":
      return fstat(call.descriptor, done);
    case "read":
      return read(call.descriptor, call.buffer, call.offset, call.buffer.length - call.offset, null, done);
    case "close":
      return close(call.descriptor, () => done(null));
  }
}
