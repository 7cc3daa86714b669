import { constants, fstatSync, openSync, read, readFileSync, writeSync, type Stats } from "node:fs";
import type { HookInput } from "./read-stdin.js";

/**
 * A process's stdin, stdout and stderr read and written through their file descriptors where
 * that is safe: `process.stdin`/`process.stdout` load the stream and socket machinery, which
 * takes longer than everything else a session-start hook does. A file is read at once, a pipe
 * by polling a non-blocking copy of it, a socket through `process.stdin`.
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
  if (info.isFile()) {
    return {
      async *[Symbol.asyncIterator]() {
        yield readFileSync(descriptor);
      },
    };
  }
  // A pipe reopened without blocking is read by polling. A socket (what node-based agents
  // give their hooks) cannot be reopened, and a blocking read of it would keep the process
  // from exiting if the other end never closed it; process.stdin reads it without blocking.
  const nonBlocking = info.isFIFO() ? reopenWithoutBlocking(descriptor) : null;
  return nonBlocking === null ? streamChunks(process.stdin) : pollDescriptor(nonBlocking);
}

// The stream's events, not its async iterator: that one loads more of the stream machinery.
function streamChunks(stream: NodeJS.ReadableStream): HookInput {
  return {
    [Symbol.asyncIterator]() {
      const chunks: Array<string | Uint8Array> = [];
      let ended = false;
      let failure: unknown = null;
      let wake: (() => void) | null = null;
      const notify = (): void => {
        wake?.();
        wake = null;
      };
      stream.on("data", (chunk: string | Uint8Array) => (chunks.push(chunk), notify()));
      stream.on("end", () => ((ended = true), notify()));
      stream.on("error", (error: unknown) => ((failure = error), notify()));
      return {
        async next(): Promise<IteratorResult<string | Uint8Array>> {
          while (chunks.length === 0 && !ended && failure === null) await new Promise<void>((resolve) => (wake = resolve));
          if (chunks.length > 0) return { value: chunks.shift()!, done: false };
          if (failure !== null) throw failure;
          return { value: undefined, done: true };
        },
      };
    },
  };
}

function reopenWithoutBlocking(descriptor: number): number | null {
  try {
    return openSync(`/proc/self/fd/${descriptor}`, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
}

function pollDescriptor(descriptor: number): HookInput {
  return {
    async *[Symbol.asyncIterator]() {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        const count = await readOnce(descriptor, buffer);
        if (count === 0) return;
        yield Buffer.from(buffer.subarray(0, count));
      }
    },
  };
}

function readOnce(descriptor: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const attempt = (): void =>
      read(descriptor, buffer, 0, buffer.length, null, (error, count) => {
        if (error === null) resolve(count);
        else if (error.code === "EAGAIN") setTimeout(attempt, 2).unref(); // nothing yet; the deadline still runs
        else reject(error);
      });
    attempt();
  });
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
