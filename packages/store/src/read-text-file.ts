import { readUserFile, readUserFileSync, type UserFileOptions, type UserFileResult } from "./read-user-file.js";
import type { StoreWarning } from "./store-warning.js";

export type TextFileResult = { text: string } | { missing: true } | { warning: StoreWarning };

/**
 * Reads a user-written text file through `readUserFile` (regular files only, at most
 * `MAX_FILE_BYTES`, never waiting on a FIFO or a device): invalid UTF-8 becomes U+FFFD, a BOM
 * is dropped, a missing file is `{ missing: true }`, and anything else that goes wrong is a
 * warning, never a throw.
 *
 * @example
 * const file = await readTextFile("docs/knowledge-bank/patterns.md");
 * if ("text" in file) parseKnowledgeBank(file.text, { category: "patterns", scope: "local", path });
 */
export async function readTextFile(path: string, options?: UserFileOptions): Promise<TextFileResult> {
  return decoded(await readUserFile(path, options));
}

/**
 * `readTextFile` in the calling thread, through `readUserFileSync`: for the session-start hook's
 * warm path and the small state files read between two writes.
 *
 * @example
 * const file = readTextFileSync(join(globalStoreDir, ".last-injection.json"));
 * const record = "text" in file ? JSON.parse(file.text) : null;
 */
export function readTextFileSync(path: string, options?: UserFileOptions): TextFileResult {
  return decoded(readUserFileSync(path, options));
}

function decoded(file: UserFileResult): TextFileResult {
  if (!("bytes" in file)) return file;
  // Buffer's decoding replaces invalid UTF-8 as TextDecoder does, without TextDecoder's cost on
  // first use (half a millisecond of a warm session start).
  const { buffer, byteOffset, byteLength } = file.bytes;
  const text = Buffer.from(buffer, byteOffset, byteLength).toString("utf8");
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}
