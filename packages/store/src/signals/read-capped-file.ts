import { closeSync, openSync, readSync, statSync } from "node:fs";

/** A file read with a size cap: its first `maxBytes` at most. */
export type CappedRead = { text: string; truncated: boolean } | { missing: true } | { error: string };

/**
 * Reads at most `maxBytes` of a user's file as UTF-8 (invalid bytes become U+FFFD, a BOM is
 * dropped), saying whether there was more. A missing file is `{ missing: true }`; anything
 * else that goes wrong (a folder, a FIFO, no permission) is `{ error }`, never a throw.
 *
 * @example
 * readCappedFile("/work/webshop/package.json", 1024 * 1024);
 * // { text: '{ "name": "webshop", … }', truncated: false }
 */
export function readCappedFile(path: string, maxBytes: number): CappedRead {
  let descriptor: number | undefined;
  try {
    // Checked before opening: opening a FIFO would wait for a writer. A missing file (most of the
    // manifests a start looks for) is told without an error made and thrown for it.
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) return { missing: true };
    if (!info.isFile()) return { error: info.isDirectory() ? "is a directory" : "is not a regular file" };
    descriptor = openSync(path, "r");
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    const text = buffer.subarray(0, length).toString("utf8").replace(/^\uFEFF/, "");
    return { text, truncated: info.size > maxBytes };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { missing: true };
    return { error: code ?? (error as Error).message };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
