import { fstatSync, readFileSync, readSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { descriptorWriter } from "./descriptor-writer.js";
import type { HookInput } from "./read-stdin.js";

// How long a write waits on a full pipe at most: a hook never outlives its deadline for a slow reader.
const WRITE_PATIENCE_MS = 2000;

/**
 * A process's stdin, stdout and stderr for a hook. A file given as stdin is read at once; a pipe
 * or a socket through a `net.Socket` on it, which makes it non-blocking: what the writer has
 * written is read at once, and only a writer not done yet is waited for, in the event loop, so
 * that one that never closes cannot hold the hook past its deadline; a terminal is not read.
 * Stdout and stderr are written to their file descriptors synchronously: all is written when
 * `process.exit` follows.
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
  return { stdin: readDescriptor(0), stdout: descriptorWriter(1, WRITE_PATIENCE_MS), stderr: descriptorWriter(2, WRITE_PATIENCE_MS) };
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
  // A pipe or a socket (what node-based agents such as Claude Code give their hooks): a blocking
  // read would keep the process from exiting, past its deadline, if the other end never closed
  // it. (On Windows a pipe does not become non-blocking: there, process.stdin's events only.)
  if (info.isFIFO() || info.isSocket()) return process.platform === "win32" ? streamChunks(process.stdin) : readThroughSocket(descriptor);
  // A file is read at once (anything else, such as a directory, fails here and is reported).
  return {
    readAtOnce: () => readFileSync(descriptor),
    async *[Symbol.asyncIterator]() {
      yield readFileSync(descriptor);
    },
  };
}

/**
 * A pipe or socket read as process.stdin would read it (a net.Socket on the descriptor), but
 * what is there already is read at once: opening the socket made the descriptor non-blocking, so
 * `readSync` takes what the writer has written and sees its end if it closed — as Claude Code
 * does before the hook has started — without waiting on the event loop or the stream machinery.
 * A writer not done yet (EAGAIN) is read through the socket's events.
 */
function readThroughSocket(descriptor: number): HookInput {
  // Node's own require, in the CommonJS hook bundle as in an ES module (createRequire is loaded only there).
  const { Socket: SocketClass } = (typeof require === "function" ? require : createRequire(import.meta.url))("node:net") as typeof import("node:net");
  let socket: Socket;
  try {
    socket = new SocketClass({ fd: descriptor, readable: true, writable: false });
  } catch (error) {
    // Reported as stdin that cannot be read (the hook goes on with the defaults), never thrown here.
    return {
      readAtOnce: () => {
        throw error;
      },
      async *[Symbol.asyncIterator]() {},
    };
  }
  const early: Buffer[] = [];
  let ended = false;
  return {
    readAtOnce() {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        let count: number;
        try {
          count = readSync(descriptor, buffer, 0, buffer.length, null);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EAGAIN") return null; // the rest is yet to come
          socket.destroy();
          throw error;
        }
        if (count === 0) break;
        early.push(Buffer.from(buffer.subarray(0, count)));
      }
      ended = true;
      // Not destroyed here: node destroys it when its own read meets the end (while the hook waits
      // for git, say), or the process exits first. Destroying it now cost a warm start some 0.4 ms,
      // half of it node making process.stderr (its _destroy compares the socket with it).
      return Buffer.concat(early);
    },
    [Symbol.asyncIterator]() {
      if (!ended && early.length === 0) return streamChunks(socket)[Symbol.asyncIterator]();
      const queue = chunkQueue();
      for (const chunk of early) queue.push(chunk);
      if (ended) queue.end();
      else {
        socket.on("data", (chunk: string | Uint8Array) => queue.push(chunk));
        socket.on("end", () => queue.end());
        socket.on("error", (error: unknown) => queue.fail(error));
      }
      return queue;
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

