import { fstatSync, read, writeSync } from "node:fs";
import type { HookInput } from "./read-stdin.js";

/**
 * A process's stdin, stdout and stderr read and written through their file descriptors, without
 * `process.stdin`/`process.stdout`: those load the stream and socket machinery, which takes
 * longer than everything else a session-start hook does.
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
  return {
    // A terminal (or /dev/null) is a character device: nothing to wait for.
    isTTY: isCharacterDevice(descriptor),
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
        else if (error.code === "EAGAIN") setTimeout(attempt, 5); // a non-blocking pipe with nothing yet
        else if (error.code === "EOF" || error.code === "EBADF") resolve(0);
        else reject(error);
      });
    attempt();
  });
}

function isCharacterDevice(descriptor: number): boolean {
  try {
    return fstatSync(descriptor).isCharacterDevice();
  } catch {
    return true; // closed: nothing to read
  }
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
