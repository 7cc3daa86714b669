import { fstatSync, readFileSync, readSync, writeSync, type Stats } from "node:fs";
import { getSystemErrorName } from "node:util";
import type { HookInput } from "./read-stdin.js";

/**
 * A process's stdin, stdout and stderr read and written through their file descriptors where
 * that is safe: `process.stdin`/`process.stdout` load the stream and socket machinery, which
 * takes longer than everything else a session-start hook does. A file is read at once; a pipe
 * or a socket without blocking, through libuv's pipe handle (`process.stdin` where node does
 * not expose it).
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
  // A pipe or a socket (what node-based agents such as Claude Code give their hooks). A blocking
  // read would keep the process from exiting if the other end never closed it, so it is read
  // through the event loop: by libuv's pipe handle directly where node still exposes it, else
  // through process.stdin, which does the same behind the stream machinery. (Only on POSIX
  // systems: on Windows a pipe does not become non-blocking, and a read could wait forever.)
  if (info.isFIFO() || info.isSocket()) {
    return (process.platform === "win32" ? null : readThroughPipeHandle(descriptor)) ?? streamChunks(process.stdin);
  }
  // A file is read at once (anything else, such as a directory, fails here and is reported).
  return {
    readAtOnce: () => readFileSync(descriptor),
    async *[Symbol.asyncIterator]() {
      yield readFileSync(descriptor);
    },
  };
}

/** The part of node's `pipe_wrap` and `stream_wrap` bindings that process.stdin reads a pipe with. */
interface PipeBindings {
  Pipe: new (type: number) => PipeHandle;
  constants: { SOCKET: number };
}
interface StreamBindings {
  streamBaseState: Int32Array;
  kReadBytesOrError: number;
  kArrayBufferOffset: number;
}
interface PipeHandle {
  open(descriptor: number): number;
  readStart(): number;
  readStop(): number;
  close(): void;
  onread: (this: void, arrayBuffer: ArrayBuffer | undefined) => void;
}

// Loading net and stream for process.stdin costs a session start some 5 to 10 ms, more than
// everything else a warm start does. The handle underneath is part of node's binary; its
// interface is internal, so every piece is checked, and anything missing or failing leaves the
// reading to process.stdin.
function readThroughPipeHandle(descriptor: number): HookInput | null {
  let handle: PipeHandle;
  let state: StreamBindings;
  try {
    const binding = (process as unknown as { binding?: (name: string) => unknown }).binding;
    // Under --pending-deprecation node wraps process.binding in a function that warns (DEP0111),
    // and with --throw-deprecation a warning is thrown on the next tick, past any catch: only
    // node's own, unwrapped function is used, and never where a warning would crash the hook.
    // (Under the permission model process.binding throws: caught below.)
    if (typeof binding !== "function" || binding.name !== "binding" || process.throwDeprecation === true) return null;
    const pipes = binding("pipe_wrap") as Partial<PipeBindings>;
    const streams = binding("stream_wrap") as Partial<StreamBindings>;
    if (
      typeof pipes.Pipe !== "function" ||
      typeof pipes.constants?.SOCKET !== "number" ||
      !(streams.streamBaseState instanceof Int32Array) ||
      typeof streams.kReadBytesOrError !== "number" ||
      typeof streams.kArrayBufferOffset !== "number"
    ) {
      return null;
    }
    state = streams as StreamBindings;
    handle = new pipes.Pipe(pipes.constants.SOCKET);
    if (handle.open(descriptor) !== 0) {
      handle.close();
      return null;
    }
  } catch {
    return null;
  }
  // Opening the handle made the descriptor non-blocking: what is there already can be read
  // without waiting, and a writer that has written and closed needs no wait at all.
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
          handle.close();
          throw error;
        }
        if (count === 0) break;
        early.push(Buffer.from(buffer.subarray(0, count)));
      }
      ended = true;
      handle.close();
      return Buffer.concat(early);
    },
    [Symbol.asyncIterator]() {
      const queue = chunkQueue();
      for (const chunk of early) queue.push(chunk);
      if (ended) {
        queue.end();
        return queue;
      }
      handle.onread = (arrayBuffer) => {
        const count = state.streamBaseState[state.kReadBytesOrError]!;
        if (count > 0 && arrayBuffer !== undefined) {
          queue.push(Buffer.from(arrayBuffer, state.streamBaseState[state.kArrayBufferOffset], count));
          return;
        }
        if (count === 0) return; // nothing this time (EAGAIN)
        handle.readStop();
        handle.close();
        // libuv's end of file; any other negative count is an error such as ECONNRESET.
        if (count === UV_EOF) queue.end();
        else queue.fail(new Error(getSystemErrorName(count)));
      };
      const started = handle.readStart();
      if (started !== 0) queue.fail(new Error(getSystemErrorName(started)));
      return queue;
    },
  };
}

const UV_EOF = -4095;

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
