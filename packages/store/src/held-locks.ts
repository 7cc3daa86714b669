import { join, resolve } from "node:path";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";

/** The lock file's name inside a store directory. */
export const LOCK_FILE = ".lock";

// The locks this process holds: store directory → the nonce written in its lock file.
const held = new Map<string, string>();

/** Records that this process holds `directory`'s lock under `nonce` (until `forgetHeldLock`). */
export function rememberHeldLock(directory: string, nonce: string): void {
  held.set(resolve(directory), nonce);
}

/** Forgets a lock this process no longer holds. */
export function forgetHeldLock(directory: string): void {
  held.delete(resolve(directory));
}

/**
 * Throws STORE_LOCKED when this process took `directory`'s lock but the lock file no longer
 * names it (another process broke it, believing this one gone): a writer calls it before the
 * point of no return of a commit, so that two writers never both commit. Does nothing for a
 * directory this process has not locked.
 *
 * @example
 * await assertLockStillHeld(storeDir); // before the renames of commitFiles
 */
export async function assertLockStillHeld(directory: string): Promise<void> {
  const nonce = held.get(resolve(directory));
  if (nonce === undefined) return;
  const file = await readTextFile(join(directory, LOCK_FILE));
  let current: unknown = null;
  try {
    current = "text" in file ? (JSON.parse(file.text) as { nonce?: unknown }).nonce : null;
  } catch {
    current = null;
  }
  if (current !== nonce) {
    throw new StoreError("STORE_LOCKED", `cannot commit in ${directory}: another process took the store's lock while this one was stalled; nothing was changed — run the command again`);
  }
}
