import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { errorMessage, hasErrorCode } from "./error-code.js";
import { assertLockStillHeld } from "./held-locks.js";
import { encodeLossless } from "./lossless-utf8.js";
import { MAX_FILE_BYTES } from "./read-user-file.js";

/** The journal of a commit in progress, inside the store directory. */
export const COMMIT_JOURNAL = ".commit.json";

export interface FileWrite {
  /** Absolute path of the file to replace or create. */
  path: string;
  /** Text (written as `encodeLossless` writes it), or the bytes themselves, whole or in pieces written one after the other. */
  content: string | Uint8Array | readonly Uint8Array[];
}

interface Journal {
  renames: Array<{ from: string; to: string }>;
}

const TEMPORARY = /\.iflow-[0-9a-f]{16}\.tmp$/;

/**
 * Replaces several files as one: after a crash at any instant, either every file has its new
 * content or (once `recoverCommit` has run) every file has its old one — never a mix, never a
 * torn file. Each new content goes to a temporary file beside its target and is fsynced; a
 * journal naming the renames is then written atomically, the renames done, the journal removed.
 * Call it while holding the store's lock (`withStoreLock` finishes an interrupted commit first).
 * Files get mode 0600, new folders 0700. A content over `MAX_FILE_BYTES` (which the store could
 * not read back) is refused before anything is written.
 *
 * @example
 * await commitFiles(storeDir, [
 *   { path: join(storeDir, "anti-patterns.md"), content: antiPatterns },
 *   { path: join(storeDir, "heuristics.md"), content: heuristics },
 * ]);
 */
export async function commitFiles(directory: string, writes: readonly FileWrite[]): Promise<void> {
  if (writes.length === 0) return;
  // A file the store could not read back (past the read limit) would lock it out of itself.
  for (const write of writes) {
    const bytes = byteLength(write.content);
    if (bytes > MAX_FILE_BYTES) {
      throw new StoreError("STORE_WRITE_FAILED", `cannot write ${basename(write.path)} in ${directory}: it would be ${bytes} bytes, over the ${MAX_FILE_BYTES}-byte limit it must be read back within; nothing was changed — forget or archive entries to make room`);
    }
  }
  const nonce = randomBytes(8).toString("hex");
  const renames: Journal["renames"] = writes.map((write) => ({ from: `${write.path}.iflow-${nonce}.tmp`, to: write.path }));
  // Written side by side: the file system syncs them together rather than one after the other
  // (three files of 6 MB: some 14 ms against 19). All have finished, written or failed, before
  // any is removed: a write still under way could otherwise make its file after the removal.
  const written = await Promise.allSettled(
    writes.map(async (write, at) => {
      await mkdir(dirname(write.path), { recursive: true, mode: 0o700 });
      await writeSynced(renames[at]!.from, write.content);
    }),
  );
  const failed = written.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed !== undefined) {
    await Promise.all(renames.map(({ from }) => unlink(from).catch(() => undefined)));
    throw new StoreError("STORE_WRITE_FAILED", `cannot write ${writes.map((write) => basename(write.path)).join(", ")} in ${directory}: ${errorMessage(failed.reason)}; nothing was changed`, { cause: failed.reason });
  }
  // The point of no return: the lock must still be ours (a stalled writer may have lost it).
  try {
    await assertLockStillHeld(directory);
  } catch (error) {
    await Promise.all(renames.map(({ from }) => unlink(from).catch(() => undefined)));
    throw error;
  }
  if (renames.length === 1) {
    await applyRenames(renames);
    await syncDirectories([dirname(renames[0]!.to)]);
    return;
  }
  const journalPath = join(directory, COMMIT_JOURNAL);
  const journalTemporary = `${journalPath}.iflow-${nonce}.tmp`;
  await writeSynced(journalTemporary, `${JSON.stringify({ renames } satisfies Journal)}\n`);
  await rename(journalTemporary, journalPath);
  await syncDirectories([directory]);
  // From here on the commit is decided: a crash is rolled forward by recoverCommit.
  await applyRenames(renames);
  await syncDirectories([...new Set(renames.map(({ to }) => dirname(to)))]);
  await unlink(journalPath);
  await syncDirectories([directory]);
}

/**
 * Finishes a commit that a crashed writer left half-done (its journal still present) and
 * removes the temporary files of commits that never reached their journal. Run under the
 * store's lock; `withStoreLock` does it before every action.
 *
 * @example
 * await recoverCommit(storeDir); // true if an interrupted commit was finished
 */
export async function recoverCommit(directory: string): Promise<boolean> {
  const journalPath = join(directory, COMMIT_JOURNAL);
  const file = await readTextFile(journalPath);
  const journal = "text" in file ? parseJournal(file.text) : null;
  // A journal that cannot be read or parsed never reached its rename (nor is a FIFO in its place one).
  if (journal === null && !("missing" in file)) await unlink(journalPath).catch(() => undefined);
  if (journal !== null) {
    await applyRenames(journal.renames, { missingIsDone: true });
    await syncDirectories([...new Set(journal.renames.map(({ to }) => dirname(to)))]);
    await unlink(journalPath).catch(() => undefined);
    await syncDirectories([directory]);
  }
  const names = await readdir(directory).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => TEMPORARY.test(name)).map((name) => unlink(join(directory, name)).catch(() => undefined)));
  return journal !== null;
}

function parseJournal(text: string): Journal | null {
  try {
    return JSON.parse(text) as Journal;
  } catch {
    return null;
  }
}

async function applyRenames(renames: Journal["renames"], options: { missingIsDone?: boolean } = {}): Promise<void> {
  for (const { from, to } of renames) {
    try {
      await rename(from, to);
    } catch (error) {
      if (options.missingIsDone === true && hasErrorCode(error, "ENOENT")) continue;
      throw new StoreError("STORE_WRITE_FAILED", `cannot replace ${to}: ${errorMessage(error)}; the next write to this store finishes the change`, { cause: error });
    }
  }
}

function byteLength(content: FileWrite["content"]): number {
  if (typeof content === "string") return encodeLossless(content).length;
  return content instanceof Uint8Array ? content.length : content.reduce((sum, piece) => sum + piece.length, 0);
}

async function writeSynced(path: string, content: FileWrite["content"]): Promise<void> {
  const handle = await open(path, "w", 0o600);
  try {
    // Pieces are written as they are: a file of many megabytes that changed in a few places is
    // never copied into one buffer first.
    if (typeof content === "string" || content instanceof Uint8Array) {
      await handle.writeFile(typeof content === "string" ? encodeLossless(content) : content);
    } else {
      for (const piece of content) {
        for (let written = 0; written < piece.length; ) written += (await handle.write(piece, written)).bytesWritten;
      }
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectories(directories: readonly string[]): Promise<void> {
  for (const directory of directories) {
    // Makes the renames durable; some file systems refuse to open a directory, which is harmless.
    const handle = await open(directory, "r").catch(() => null);
    if (handle === null) continue;
    await handle.sync().catch(() => undefined);
    await handle.close();
  }
}
