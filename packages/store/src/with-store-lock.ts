import { randomBytes } from "node:crypto";
import { link, mkdir, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { recoverCommit } from "./commit-files.js";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { errorMessage, hasErrorCode } from "./error-code.js";
import { forgetHeldLock, LOCK_FILE, rememberHeldLock } from "./held-locks.js";
import { processAlive } from "./process-alive.js";

export { LOCK_FILE };

export interface StoreLockOptions {
  /** Give up after this long (default 10 s): a store is never held that long by a healthy writer. */
  timeoutMs?: number;
  /**
   * A lock of another host whose heartbeat (its file's mtime, refreshed by its holder) is older
   * than this is stale (default 60 s). A lock of this host is stale only when its process is
   * gone: a live holder, even one stalled for minutes, keeps it.
   */
  staleMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  nonce: string;
  created: string;
}

/**
 * Runs `action` while holding the exclusive lock of a store directory, and releases it after,
 * whatever happens. The lock is a file created atomically (hard link of a complete temporary
 * file), so a reader never sees a half-written owner. A lock is broken only when its holder is
 * provably gone: on this host, its process no longer exists; on another, its heartbeat is older
 * than `staleMs`. The holder refreshes the heartbeat while `action` runs, and `commitFiles`
 * checks that the lock is still its own before it commits. Before `action` runs, a commit
 * that a crashed writer left half-done is finished (see `commitFiles`), so `action` always
 * reads a consistent store.
 *
 * @example
 * await withStoreLock("/home/ada/.claude/iflow/memory", async () => {
 *   const text = await readFile(path, "utf8");
 *   await commitFiles(directory, [{ path, content: merge(text) }]);
 * });
 */
export async function withStoreLock<T>(directory: string, action: () => Promise<T>, options: StoreLockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 60_000;
  try {
    await mkdir(directory, { recursive: true, mode: 0o700 });
  } catch (error) {
    const why = hasErrorCode(error, "EEXIST") || hasErrorCode(error, "ENOTDIR") ? "it (or a folder above it) is a file, not a directory" : errorMessage(error);
    throw new StoreError("STORE_NOT_DIRECTORY", `cannot use ${directory}: ${why}; move it away or choose another folder`, { cause: error });
  }
  const lockPath = join(directory, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString("hex"), created: new Date().toISOString() };
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  while (!(await tryCreateLock(lockPath, owner))) {
    await breakIfStale(lockPath, staleMs);
    if (Date.now() > deadline) {
      const holder = await readOwner(lockPath);
      const who = holder === null ? "another process" : `process ${holder.pid} on ${holder.host}`;
      const heldFor = holder === null ? Number.NaN : Date.now() - Date.parse(holder.created);
      const seconds = Math.round(timeoutMs / 1000);
      // Many writers taking turns are not one holder that is stuck: say which it is.
      if (heldFor < timeoutMs) {
        throw new StoreError("STORE_LOCKED", `cannot lock ${directory}: other iflow-memory processes kept it busy for ${seconds} s, one after another (now ${who}); try again when fewer are writing`);
      }
      throw new StoreError("STORE_LOCKED", `cannot lock ${directory}: ${who} has held ${LOCK_FILE} for over ${seconds} s; try again, or delete ${lockPath} if no iflow-memory is running`);
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 100);
  }
  rememberHeldLock(directory, owner.nonce);
  const heartbeat = setInterval(() => void beat(lockPath, owner), Math.max(10, Math.floor(staleMs / 4)));
  heartbeat.unref();
  try {
    await recoverCommit(directory);
    return await action();
  } finally {
    clearInterval(heartbeat);
    forgetHeldLock(directory);
    await releaseLock(lockPath, owner);
  }
}

// The lock's heartbeat: its mtime, refreshed while it is still ours.
async function beat(lockPath: string, owner: LockOwner): Promise<void> {
  try {
    if ((await readOwner(lockPath))?.nonce !== owner.nonce) return;
    const now = new Date();
    await utimes(lockPath, now, now);
  } catch {
    // a missed beat only brings the lock closer to stale on another host
  }
}

async function tryCreateLock(lockPath: string, owner: LockOwner): Promise<boolean> {
  const temporary = `${lockPath}.${owner.nonce}.tmp`;
  await writeFile(temporary, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  try {
    await link(temporary, lockPath);
    return true;
  } catch (error) {
    if (hasErrorCode(error, "EEXIST")) return false;
    throw new StoreError("STORE_WRITE_FAILED", `cannot create ${lockPath}: ${errorMessage(error)}; check that the folder is writable`, { cause: error });
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readOwner(lockPath: string): Promise<LockOwner | null> {
  const file = await readTextFile(lockPath);
  if (!("text" in file)) return null;
  try {
    const owner = JSON.parse(file.text) as Partial<LockOwner>;
    return typeof owner.pid === "number" && typeof owner.nonce === "string" && typeof owner.host === "string" ? (owner as LockOwner) : null;
  } catch {
    return null;
  }
}

async function breakIfStale(lockPath: string, staleMs: number): Promise<void> {
  const owner = await readOwner(lockPath);
  if (owner === null) {
    // Unreadable owner: only its age can tell.
    const age = await ageOf(lockPath);
    if (age !== null && age > staleMs) await removeIfSame(lockPath, null);
    return;
  }
  // On this host the process table tells for sure; elsewhere only the heartbeat can.
  if (owner.host === hostname()) {
    if (!processAlive(owner.pid)) await removeIfSame(lockPath, owner.nonce);
    return;
  }
  const age = await ageOf(lockPath);
  if (age !== null && age > staleMs) await removeIfSame(lockPath, owner.nonce);
}

// Two waiters may both find the same stale lock; the break lock makes sure only one removes it,
// and only if it is still the stale one (not a fresh lock taken meanwhile).
async function removeIfSame(lockPath: string, nonce: string | null): Promise<void> {
  const breakPath = `${lockPath}.break`;
  const breaker: LockOwner = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString("hex"), created: new Date().toISOString() };
  if (!(await tryCreateLock(breakPath, breaker))) {
    const age = await ageOf(breakPath);
    if (age !== null && age > 5_000) await unlink(breakPath).catch(() => undefined); // a breaker died mid-break
    return;
  }
  try {
    const current = await readOwner(lockPath);
    if ((current?.nonce ?? null) === nonce) await unlink(lockPath).catch(() => undefined);
  } finally {
    await unlink(breakPath).catch(() => undefined);
  }
}

async function releaseLock(lockPath: string, owner: LockOwner): Promise<void> {
  const current = await readOwner(lockPath);
  if (current?.nonce === owner.nonce) await unlink(lockPath).catch(() => undefined);
}

async function ageOf(path: string): Promise<number | null> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}


function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
