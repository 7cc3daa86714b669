import { readFileSync, statSync } from "node:fs";
import type { StoreWarning } from "./store-warning.js";

/** Files larger than this are skipped with a warning rather than read into memory. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

export type TextFileResult = { text: string } | { missing: true } | { warning: StoreWarning };

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Reads a user-written text file: invalid UTF-8 becomes U+FFFD, a BOM is dropped, a missing
 * file is `{ missing: true }`, and anything else that goes wrong is a warning, never a throw.
 */
export async function readTextFile(path: string): Promise<TextFileResult> {
  // Synchronous on purpose: at a session start, loading fs/promises costs more than these reads.
  try {
    const info = statSync(path);
    if (info.isDirectory()) return { warning: { path, message: "is a directory, not a file; skipped" } };
    if (info.size > MAX_FILE_BYTES) {
      return { warning: { path, message: `is ${info.size} bytes, over the ${MAX_FILE_BYTES}-byte limit; skipped` } };
    }
    return { text: decoder.decode(readFileSync(path)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { missing: true };
    if (code === "ENOTDIR") return { warning: { path, message: "its folder is a file, not a directory; skipped" } };
    return { warning: { path, message: `cannot be read (${code ?? (error as Error).message}); skipped` } };
  }
}
