import type { PendingAppend } from "./commit-files.js";
import { decodeLossless } from "./lossless-utf8.js";
import { readUserFile, readUserFileSync, type UserFileOptions, type UserFileResult } from "./read-user-file.js";
import type { StoreWarning } from "./store-warning.js";

export type TextFileResult = { text: string } | { missing: true } | { warning: StoreWarning };

/**
 * Reads a user-written text file through `readUserFile` (regular files only, at most
 * `MAX_FILE_BYTES`, never waiting on a FIFO or a device): invalid UTF-8 becomes U+FFFD, a BOM
 * is dropped, a missing file is `{ missing: true }`, and anything else that goes wrong is a
 * warning, never a throw. With `lossless` (a file about to be edited and written back), invalid
 * UTF-8 is kept byte for byte instead (see `decodeLossless`; `commitFiles` and
 * `writeFileAtomically` write it back as it was). With `appended` (a commit in progress, see
 * `readCommittedFiles`), the text is the file's first `at` bytes followed by the bytes appended.
 * With `inThread`, it is read in the calling thread (`readTextFileSync`).
 *
 * @example
 * const file = await readTextFile("docs/knowledge-bank/patterns.md");
 * if ("text" in file) parseKnowledgeBank(file.text, { category: "patterns", scope: "local", path });
 */
export async function readTextFile(path: string, options?: TextFileOptions): Promise<TextFileResult> {
  return textOf(await readUserFile(path, options), options);
}

/** How `readTextFile` reads and decodes a file. */
export type TextFileOptions = UserFileOptions & { lossless?: boolean; appended?: PendingAppend | undefined };

/**
 * `readTextFile` in the calling thread, through `readUserFileSync`: for the session-start hook
 * (its warm path, and its memory files: see `EntryFileCache.inThread`) and the small state files
 * read between two writes.
 *
 * @example
 * const file = readTextFileSync(join(globalStoreDir, ".last-injection.json"));
 * const record = "text" in file ? JSON.parse(file.text) : null;
 */
export function readTextFileSync(path: string, options?: TextFileOptions): TextFileResult {
  return textOf(readUserFileSync(path, options), options);
}

function textOf(file: UserFileResult, options: TextFileOptions | undefined): TextFileResult {
  const appended = options?.appended;
  // A file shorter than where the commit appends is not the one it appended to: read as it is.
  const read = appended === undefined || !("bytes" in file) || file.bytes.length < appended.at ? file : { bytes: Buffer.concat([file.bytes.subarray(0, appended.at), appended.bytes]) };
  return decoded(read, options?.lossless === true);
}

function decoded(file: UserFileResult, lossless = false): TextFileResult {
  if (!("bytes" in file)) return file;
  if (lossless) {
    const text = decodeLossless(file.bytes);
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  }
  return { text: decodeText(file.bytes) };
}

/**
 * A file's bytes as `readTextFile` decodes them: invalid UTF-8 becomes U+FFFD, a BOM is dropped.
 *
 * @example
 * decodeText(Buffer.from("\ufeff### Pattern: A\n")); // "### Pattern: A\n"
 */
export function decodeText(bytes: Uint8Array): string {
  // Buffer's decoding replaces invalid UTF-8 as TextDecoder does, without TextDecoder's cost on
  // first use (half a millisecond of a warm session start).
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
