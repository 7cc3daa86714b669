import { readUserFile } from "./read-user-file.js";
import type { StoreWarning } from "./store-warning.js";

export type TextFileResult = { text: string } | { missing: true } | { warning: StoreWarning };

// Made at the first read: a module that only imports this one pays nothing for it.
let decoder: InstanceType<typeof TextDecoder> | undefined;

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
export async function readTextFile(path: string): Promise<TextFileResult> {
  const file = await readUserFile(path);
  if (!("bytes" in file)) return file;
  decoder ??= new TextDecoder("utf-8", { fatal: false });
  return { text: decoder.decode(file.bytes) };
}
