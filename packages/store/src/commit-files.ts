import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, readdir, rename, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { errorMessage, hasErrorCode } from "./error-code.js";
import { assertLockStillHeld } from "./held-locks.js";
import { encodeLossless } from "./lossless-utf8.js";
import { MAX_FILE_BYTES } from "./read-user-file.js";

/** The journal of a commit in progress, inside the store directory. */
export const COMMIT_JOURNAL = ".commit.json";

export type FileWrite = (FileReplacement | FileAppend) & {
  /** Give the file a modification time of its own (see `CommitResult.marks`). */
  mark?: boolean;
};

export interface FileReplacement {
  /** Absolute path of the file to replace or create. */
  path: string;
  /** Text (written as `encodeLossless` writes it), or the bytes themselves, whole or in pieces written one after the other. */
  content: string | Uint8Array | readonly Uint8Array[];
}

export interface FileAppend {
  /** Absolute path of a file directly in the commit's directory, which must exist. */
  path: string;
  /** Bytes added at the end of the file… */
  append: Uint8Array;
  /** …which is this long now, as it was read: a file that changed since is not written. */
  at: number;
}

interface Journal {
  renames: Array<{ from: string; to: string }>;
  /** Bytes (base64) that go at `at` of a file, which is cut there first: written again whole by a recovery. */
  appends?: Array<{ path: string; at: number; bytes: string }>;
}

export interface CommitResult {
  /**
   * Of each file written with `mark` whose file system keeps it: the modification time (ns) the
   * commit gave it, at random within a millisecond — one the kernel's clock will not give a later write.
   * While a file's stat still shows it, the file holds what the commit left (a cache keyed by
   * its stamp needs no second look at the bytes, however soon after the commit it is read).
   */
  marks: Map<string, bigint>;
}

/** Bytes a commit in progress adds at the end of a file: the file as committed is its first `at` bytes, then these. */
export interface PendingAppend {
  at: number;
  bytes: Uint8Array;
}

const TEMPORARY = /\.iflow-[0-9a-f]{16}\.tmp$/;
// What follows its target's name in a commit's temporary, and nothing else.
const TEMPORARY_SUFFIX = new RegExp(`^${TEMPORARY.source}`);

// A file appended to is opened for reading and writing, never waiting: a FIFO or a device put in
// its place opens at once (and is then refused, not being a file), and no terminal becomes ours.
const APPEND_FLAGS = constants.O_RDWR | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Replaces several files as one, or adds bytes at the end of some: after a crash at any instant,
 * either every file has its new content or (once `recoverCommit` has run) every file has its old
 * one — never a mix, never a torn file. Each new content goes to a temporary file beside its
 * target and is fsynced; a journal naming the renames, and holding the bytes appended, is then
 * written atomically, the bytes appended and fsynced, the renames done, the journal removed.
 * Appending costs what is added, not what a file held: a store of 18 MB that gains a few
 * entries is not written again. Readers (`readCommittedFiles`) read a commit whose journal is
 * there as done.
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
export async function commitFiles(directory: string, writes: readonly FileWrite[]): Promise<CommitResult> {
  const marks = new Map<string, bigint>();
  if (writes.length === 0) return { marks };
  // A file the store could not read back (past the read limit) would lock it out of itself.
  for (const write of writes) {
    const bytes = "append" in write ? write.at + write.append.length : byteLength(write.content);
    if (bytes > MAX_FILE_BYTES) {
      throw new StoreError("STORE_WRITE_FAILED", `cannot write ${basename(write.path)} in ${directory}: it would be ${bytes} bytes, over the ${MAX_FILE_BYTES}-byte limit it must be read back within; nothing was changed — forget or archive entries to make room`);
    }
  }
  const replaced = writes.filter((write): write is FileReplacement & FileWrite => "content" in write);
  const appended = writes.filter((write): write is FileAppend & FileWrite => "append" in write);
  const nonce = randomBytes(8).toString("hex");
  const renames: Journal["renames"] = replaced.map((write) => ({ from: `${write.path}.iflow-${nonce}.tmp`, to: write.path }));
  const handles: Array<FileHandle | undefined> = [];
  const discard = () => Promise.all(renames.map(({ from }) => unlink(from).catch(() => undefined)));
  try {
    // Written side by side: the file system syncs them together rather than one after the other
    // (three files of 6 MB: some 14 ms against 19). All have finished, written or failed, before
    // any is removed: a write still under way could otherwise make its file after the removal.
    // A file to append to is opened now, and must be as long as it was read.
    const written = await Promise.allSettled([
      ...replaced.map(async (write, at) => {
        await mkdir(dirname(write.path), { recursive: true, mode: 0o700 });
        const mark = await writeSynced(renames[at]!.from, write.content, { mark: write.mark === true });
        if (mark !== null) marks.set(write.path, mark);
      }),
      ...appended.map(async (write, at) => {
        if (resolve(dirname(write.path)) !== resolve(directory)) throw new Error(`${write.path} is not a file of ${directory}`);
        const handle = await open(write.path, APPEND_FLAGS);
        handles[at] = handle;
        const info = await handle.stat();
        if (!info.isFile()) throw new Error(`${basename(write.path)} is not a file`);
        if (info.size !== write.at) {
          throw new StoreError("STORE_WRITE_FAILED", `cannot write ${basename(write.path)} in ${directory}: another program changed it since it was read (${info.size} bytes, not ${write.at}); nothing was changed — run the command again`);
        }
      }),
    ]);
    const failed = written.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed !== undefined) {
      await discard();
      if (failed.reason instanceof StoreError) throw failed.reason;
      throw new StoreError("STORE_WRITE_FAILED", `cannot write ${writes.map((write) => basename(write.path)).join(", ")} in ${directory}: ${errorMessage(failed.reason)}; nothing was changed`, { cause: failed.reason });
    }
    // The point of no return: the lock must still be ours (a stalled writer may have lost it).
    try {
      await assertLockStillHeld(directory);
    } catch (error) {
      await discard();
      throw error;
    }
    if (renames.length === 1 && appended.length === 0) {
      await applyRenames(renames);
      await syncDirectories([dirname(renames[0]!.to)]);
      return { marks };
    }
    const journalPath = join(directory, COMMIT_JOURNAL);
    const journalTemporary = `${journalPath}.iflow-${nonce}.tmp`;
    const appends = appended.map((write) => ({ path: write.path, at: write.at, bytes: Buffer.from(write.append.buffer, write.append.byteOffset, write.append.byteLength).toString("base64") }));
    await writeSynced(journalTemporary, `${JSON.stringify({ renames, ...(appends.length === 0 ? {} : { appends }) } satisfies Journal)}\n`);
    await rename(journalTemporary, journalPath);
    await syncDirectories([directory]);
    // From here on the commit is decided: a crash is rolled forward by recoverCommit.
    await Promise.all(
      appended.map(async (write, at) => {
        const mark = await appendSynced(handles[at]!, write.at, write.append, { mark: write.mark === true });
        if (mark !== null) marks.set(write.path, mark);
      }),
    );
    await applyRenames(renames);
    await syncDirectories([...new Set(renames.map(({ to }) => dirname(to)))]);
    await unlink(journalPath);
    await syncDirectories([directory]);
    return { marks };
  } finally {
    await Promise.all(handles.map((handle) => handle?.close().catch(() => undefined)));
  }
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
    for (const [path, append] of pendingAppends(journal, directory)) await appendAgain(path, append);
    // Only a commit's own renames: a temporary beside its target, inside the store (whatever else a journal says).
    const renames = (Array.isArray(journal.renames) ? journal.renames : []).filter((item) => isCommitRename(item, directory));
    await applyRenames(renames, { missingIsDone: true });
    await syncDirectories([...new Set(renames.map(({ to }) => dirname(to)))]);
    await unlink(journalPath).catch(() => undefined);
    await syncDirectories([directory]);
  }
  const names = await readdir(directory).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => TEMPORARY.test(name)).map((name) => unlink(join(directory, name)).catch(() => undefined)));
  return journal !== null;
}

/**
 * Whether a journal's rename is one `commitFiles` writes: from the target's own temporary
 * (`<target>.iflow-<16 hex>.tmp`) to a target inside `directory`.
 *
 * @example
 * isCommitRename({ from: `${store}/patterns.md.iflow-0123456789abcdef.tmp`, to: `${store}/patterns.md` }, store); // true
 */
export function isCommitRename(item: unknown, directory: string): item is { from: string; to: string } {
  const { from, to } = (item ?? {}) as { from?: unknown; to?: unknown };
  if (typeof from !== "string" || typeof to !== "string") return false;
  if (!resolve(to).startsWith(`${resolve(directory)}${sep}`)) return false;
  return from.startsWith(to) && TEMPORARY_SUFFIX.test(from.slice(to.length));
}

function parseJournal(text: string): Journal | null {
  try {
    return JSON.parse(text) as Journal;
  } catch {
    return null;
  }
}

/**
 * The bytes a journal appends, by file: only files directly in `directory` (whatever else a
 * journal names), each at most once.
 *
 * @example
 * pendingAppends(journal, storeDir).get(join(storeDir, "patterns.md")); // { at: 18000412, bytes }
 */
export function pendingAppends(journal: unknown, directory: string): Map<string, PendingAppend> {
  const appends = new Map<string, PendingAppend>();
  const items = (journal as { appends?: unknown } | null)?.appends;
  if (!Array.isArray(items)) return appends;
  for (const item of items as Array<{ path?: unknown; at?: unknown; bytes?: unknown }>) {
    if (typeof item?.path !== "string" || !Number.isSafeInteger(item.at) || (item.at as number) < 0 || typeof item.bytes !== "string") continue;
    if (resolve(dirname(item.path)) !== resolve(directory) || appends.has(item.path)) continue;
    appends.set(item.path, { at: item.at as number, bytes: Buffer.from(item.bytes, "base64") });
  }
  return appends;
}

async function appendSynced(handle: FileHandle, at: number, bytes: Uint8Array, options: { mark?: boolean } = {}): Promise<bigint | null> {
  for (let written = 0; written < bytes.length; ) written += (await handle.write(bytes, written, bytes.length - written, at + written)).bytesWritten;
  await handle.truncate(at + bytes.length);
  const mark = options.mark === true ? await markModified(handle) : null;
  await handle.sync();
  return mark;
}

// The file's modification time set, at once, to now with microseconds of chance: a time no
// later write can give it (the kernel sets it from its clock, in ticks of milliseconds), so that
// the file's stamp after the commit stands for these bytes alone, even within the tick (see
// `CommitResult.marks`). Null where the file system does not keep it (a coarser clock).
async function markModified(handle: FileHandle): Promise<bigint | null> {
  try {
    const seconds = Date.now() / 1000 + (1 + (randomBytes(4).readUInt32LE() % 998)) / 1_000_000;
    // Its access time too: written now, it is as good as read now.
    await handle.utimes(seconds, seconds);
    const after = await handle.stat({ bigint: true });
    const wanted = BigInt(Math.round(seconds * 1_000_000)) * 1000n;
    const off = after.mtimeNs > wanted ? after.mtimeNs - wanted : wanted - after.mtimeNs;
    return off < 2_000n && after.mtimeNs % 1_000_000n !== 0n ? after.mtimeNs : null;
  } catch {
    return null;
  }
}

// A journalled append written again: the file cut where the commit found its end, and the bytes
// written there. A file that is missing, not a file, or shorter than that is not the one the
// commit appended to (replaced since by someone else) and is left as it is.
async function appendAgain(path: string, append: PendingAppend): Promise<void> {
  const handle = await open(path, APPEND_FLAGS).catch(() => null);
  if (handle === null) return;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size < append.at) return;
    await appendSynced(handle, append.at, append.bytes);
  } catch (error) {
    throw new StoreError("STORE_WRITE_FAILED", `cannot finish the change to ${path}: ${errorMessage(error)}; the next write to this store finishes it`, { cause: error });
  } finally {
    await handle.close();
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

function byteLength(content: FileReplacement["content"]): number {
  if (typeof content === "string") return encodeLossless(content).length;
  return content instanceof Uint8Array ? content.length : content.reduce((sum, piece) => sum + piece.length, 0);
}

async function writeSynced(path: string, content: FileReplacement["content"], options: { mark?: boolean } = {}): Promise<bigint | null> {
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
    // A temporary file no one else knows of: the mark is the renamed file's from its first instant.
    const mark = options.mark === true ? await markModified(handle) : null;
    await handle.sync();
    return mark;
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
