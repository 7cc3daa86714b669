import { closeSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openCreating } from "../write-file-atomically.js";

/** Ledgers of sessions not heard from for this long are removed. */
export const SESSION_LEDGER_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** The ledgers are looked over for old ones at most this often (a marker file's time says when last). */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
const PRUNED_MARKER = ".pruned";

const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Where the entries given to one session are listed: the global store's cache, a file per session. */
export function sessionLedgerPath(globalStoreDir: string, sessionId: string): string {
  return join(sessionsFolder(globalStoreDir), `${sessionFileName(sessionId)}.txt`);
}

/** The folder of the sessions' ledgers (and of their claims, `claimSessionEvent`). */
export function sessionsFolder(globalStoreDir: string): string {
  return join(globalStoreDir, ".cache", "sessions");
}

/** A session's id as the names of its files begin: the id itself when it is a safe file name, else its bytes in hex. */
export function sessionFileName(sessionId: string): string {
  return SAFE_ID.test(sessionId) ? sessionId : `x-${Buffer.from(sessionId).toString("hex").slice(0, 120)}`;
}

/**
 * The content hashes a session has been given so far (by its start and its prompts); empty for
 * a session without a ledger or one that cannot be read.
 *
 * @example
 * readSessionLedger(store, "5f0c…").has("184d72236ce876cf"); // true once injected
 */
export function readSessionLedger(globalStoreDir: string, sessionId: string): Set<string> {
  try {
    const text = readFileSync(sessionLedgerPath(globalStoreDir, sessionId), "utf8");
    return new Set(text.split("\n").filter((line) => /^[0-9a-f]{16}$/.test(line)));
  } catch {
    return new Set();
  }
}

/**
 * Adds content hashes to a session's ledger: one append of whole lines (concurrent writers never
 * interleave within a line), the folder private. A session's first entry also removes the ledgers
 * of sessions older than `SESSION_LEDGER_MAX_AGE_MS`, once a day at most. Throws on I/O failure; callers treat it as a
 * warning (the injection itself is unaffected).
 *
 * @example
 * recordInSessionLedger(store, sessionId, plan.entries.map((entry) => entry.contentHash));
 */
export function recordInSessionLedger(globalStoreDir: string, sessionId: string, hashes: readonly string[], now = Date.now()): void {
  if (hashes.length === 0) return;
  const path = sessionLedgerPath(globalStoreDir, sessionId);
  // Made by this call (an exclusive create), or there already: one open either way, the folder
  // made only when it is missing (a session start's claim made it already).
  let descriptor: number;
  let isNew = true;
  try {
    descriptor = openCreating(path, "ax");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    descriptor = openSync(path, "a", 0o600);
    isNew = false;
  }
  try {
    const line = Buffer.from(`${hashes.join("\n")}\n`, "utf8");
    // One write of whole lines (O_APPEND): a second writer's lines come before or after these.
    for (let written = 0; written < line.length; ) written += writeSync(descriptor, line, written);
  } finally {
    closeSync(descriptor);
  }
  if (!isNew) return;
  const folder = sessionsFolder(globalStoreDir);
  const marker = join(folder, PRUNED_MARKER);
  const pruned = statSync(marker, { throwIfNoEntry: false });
  if (pruned === undefined || now - pruned.mtimeMs > PRUNE_EVERY_MS) {
    closeSync(openSync(marker, "w", 0o600));
    utimesSync(marker, now / 1000, now / 1000);
    pruneLedgers(folder, now);
  }
}

function pruneLedgers(folder: string, now: number): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    try {
      const info = statSync(path);
      if (info.isFile() && name !== PRUNED_MARKER && now - info.mtimeMs > SESSION_LEDGER_MAX_AGE_MS) unlinkSync(path);
    } catch {
      // gone already, or not ours to remove
    }
  }
}
