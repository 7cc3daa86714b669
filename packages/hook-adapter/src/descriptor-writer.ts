import { writeSync } from "node:fs";

/**
 * A writer on a file descriptor that writes at once (`writeSync`): all is written when `write`
 * returns, so the process may exit right after, and printing does not load node's streams
 * (`process.stdout` does, some 3 ms of a process that answers in a few dozen). A full
 * non-blocking pipe is waited on, a millisecond at a time, for at most `patienceMs` in one
 * `write` (a hook must not outlive its deadline; a command's reader may be a pager); a closed one
 * (nobody reads any more) ends the writing without a word.
 *
 * @example
 * descriptorWriter(1, Number.POSITIVE_INFINITY).write("0.1.0\n");
 */
export function descriptorWriter(descriptor: number, patienceMs: number): { write(text: string, callback?: () => void): boolean } {
  let closed = false;
  return {
    write(text, callback) {
      const bytes = Buffer.from(text, "utf8");
      let waited = 0;
      for (let written = 0; written < bytes.length && !closed; ) {
        try {
          written += writeSync(descriptor, bytes, written);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EAGAIN" || ++waited > patienceMs) closed = true;
          else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        }
      }
      callback?.();
      return true;
    },
  };
}
