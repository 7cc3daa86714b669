import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";

/**
 * Writes a whole file so that readers see the old content or the new, never a torn one:
 * a temporary file beside it, fsync, rename. Creates its folder (mode 0700) if needed; the file
 * gets mode 0600 (memory can hold what a user would not share).
 *
 * @example
 * await writeFileAtomically("/home/ada/.claude/iflow/memory/.last-injection.json", "{}\n");
 */
export async function writeFileAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, content, { mode: 0o600, fsync: true });
}
