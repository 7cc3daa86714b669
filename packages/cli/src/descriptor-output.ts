import { writeSync } from "node:fs";

/**
 * A writer on a file descriptor that writes at once (`writeSync`), for what the command prints
 * without commander — the version and `inject` — so that printing does not load node's streams
 * (`process.stdout` does, some 3 ms of a command that takes a few dozen). Everything is written
 * before `write` returns, so the process may exit right after. A full non-blocking pipe is
 * waited on, however slow its reader (a pager); a closed one (nobody reads any more) ends the
 * writing without a word, as a reader that quit would expect.
 *
 * @example
 * descriptorOutput(1).write("0.1.0\n");
 */
export function descriptorOutput(descriptor: number): { write(text: string, callback?: () => void): boolean } {
  let closed = false;
  return {
    write(text, callback) {
      const bytes = Buffer.from(text, "utf8");
      for (let written = 0; written < bytes.length && !closed; ) {
        try {
          written += writeSync(descriptor, bytes, written);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EAGAIN") closed = true;
          else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        }
      }
      callback?.();
      return true;
    },
  };
}
