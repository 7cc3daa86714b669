import { fstatSync, readFileSync, writeSync, type Stats } from "node:fs";
import type { HookInput } from "./read-stdin.js";

/**
 * A process's stdin, stdout and stderr for a hook. A file given as stdin is read at once; a pipe
 * or a socket through `process.stdin`, in the event loop, so that a writer that never closes
 * cannot hold the hook past its deadline; a terminal is not read. Stdout and stderr are written
 * to their file descriptors synchronously: all is written when `process.exit` follows.
 *
 * @example
 * const io = descriptorIO();
 * await runSessionStartHook({ ...io, env: process.env, cwd: process.cwd() });
 */
export function descriptorIO(): {
  stdin: HookInput;
  stdout: { write(text: string, callback?: () => void): boolean };
  stderr: { write(text: string): boolean };
} {
  return { stdin: readDescriptor(0), stdout: writer(1), stderr: writer(2) };
}

function readDescriptor(descriptor: number): HookInput {
  let info: Stats | null;
  try {
    info = fstatSync(descriptor);
  } catch {
    info = null; // closed: nothing to read
  }
  // A terminal (or /dev/null) is a character device: nothing to wait for.
  if (info === null || info.isCharacterDevice()) return { isTTY: true, async *[Symbol.asyncIterator]() {} };
  // A pipe or a socket (what node-based agents such as Claude Code give their hooks) is read
  // through process.stdin, in the event loop: a blocking read would keep the process from
  // exiting, past its deadline, if the other end never closed it.
  if (info.isFIFO() || info.isSocket()) return streamChunks(process.stdin);
  // A file is read at once (anything else, such as a directory, fails here and is reported).
  return {
    readAtOnce: () => readFileSync(descriptor),
    async *[Symbol.asyncIterator]() {
      yield readFileSync(descriptor);
    },
  };
}

// The stream's events, not its async iterator: that one loads more of the stream machinery.
function streamChunks(stream: NodeJS.ReadableStream): HookInput {
  return {
    [Symbol.asyncIterator]() {
      const queue = chunkQueue();
      stream.on("data", (chunk: string | Uint8Array) => queue.push(chunk));
      stream.on("end", () => queue.end());
      stream.on("error", (error: unknown) => queue.fail(error));
      return queue;
    },
  };
}

/** An async iterator over chunks that a callback-driven reader pushes in. */
function chunkQueue(): AsyncIterator<string | Uint8Array> & {
  push(chunk: string | Uint8Array): void;
  end(): void;
  fail(error: unknown): void;
} {
  const chunks: Array<string | Uint8Array> = [];
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  return {
    push: (chunk) => (chunks.push(chunk), notify()),
    end: () => ((ended = true), notify()),
    fail: (error) => ((failure = error ?? new Error("unknown error")), notify()),
    async next(): Promise<IteratorResult<string | Uint8Array>> {
      while (chunks.length === 0 && !ended && failure === null) await new Promise<void>((resolve) => (wake = resolve));
      if (chunks.length > 0) return { value: chunks.shift()!, done: false };
      if (failure !== null) throw failure;
      return { value: undefined, done: true };
    },
  };
}

function writer(descriptor: number): { write(text: string, callback?: () => void): boolean } {
  return {
    write(text: string, callback?: () => void): boolean {
      const bytes = Buffer.from(text, "utf8");
      let retries = 0;
      for (let written = 0; written < bytes.length; ) {
        try {
          written += writeSync(descriptor, bytes, written);
        } catch (error) {
          // A full non-blocking pipe: wait a millisecond for the reader, for at most two seconds.
          // Anything else (a closed pipe) means nobody is reading.
          if ((error as NodeJS.ErrnoException).code !== "EAGAIN" || ++retries > 2000) break;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        }
      }
      callback?.();
      return true;
    },
  };
}
