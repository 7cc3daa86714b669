import { chmodSync, renameSync, statSync, unlinkSync } from "node:fs";
import { parseSettingsObject } from "./parse-settings-object.js";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { settingsLinkTarget } from "./settings-link-target.js";
import { writeFileAtomically } from "./write-file-atomically.js";

/** What `revertSettingsFile` did to the file. */
export type SettingsRevertOutcome =
  /** The backup held exactly what the removal gives: it is the file again, byte for byte. */
  | "restored"
  /** The file was written without our entries (it changed since the backup, or there is none). */
  | "rewritten"
  /** Nothing but our entries was in it and there was no file before the install: it is gone. */
  | "deleted"
  /** None of our entries was in it. */
  | "unchanged";

/**
 * Undoes `updateSettingsFile`'s install: `remove` takes our entries out of the settings, and
 * returns both the result without what the removal left empty (`settings`) and, for settings
 * that had those empty containers before, the result that keeps them (`keptEmpty`). When the
 * backup `updateSettingsFile` kept (`<file>.iflow-memory.bak`) holds either, it is moved back
 * over the file, so the file is byte for byte what it was before the install; otherwise the file
 * is rewritten (2-space JSON), or deleted when nothing is left of it and no backup says there
 * was a file before. Once that succeeded — or there was nothing to remove — the backup is
 * removed. A file that is not a JSON object is never touched; a change another program makes
 * meanwhile (Claude Code's `~/.claude.json`) is read again, never overwritten.
 *
 * @example
 * const result = await revertSettingsFile("/home/ada/.claude/settings.json", (settings) => {
 *   const removed = removeSessionStartHook(settings);
 *   return { settings: removed.settings, keptEmpty: removeSessionStartHook(settings, "SessionStart", { keepEmpty: true }).settings, changed: removed.outcome === "removed" };
 * });
 * result.outcome; // "restored"
 */
export async function revertSettingsFile<T extends { changed: boolean }>(
  path: string,
  remove: (settings: Record<string, unknown>) => T & { settings: Record<string, unknown>; keptEmpty: Record<string, unknown> },
  options: { dryRun?: boolean } = {},
): Promise<T & { settings: Record<string, unknown>; outcome: SettingsRevertOutcome; backupRemoved: string | null }> {
  const backup = `${path}.iflow-memory.bak`;
  for (let attempt = 1; ; attempt++) {
    const file = await readTextFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const result = remove(parseSettingsObject(path, file));
    if (options.dryRun === true) return { ...result, outcome: result.changed ? "rewritten" : "unchanged", backupRemoved: null };
    if (!result.changed) return { ...result, outcome: "unchanged", backupRemoved: removeIfPresent(backup) };
    const before = await backupSettings(backup);
    const restore = before !== null && (sameJson(before, result.settings) || sameJson(before, result.keptEmpty));
    const deleteFile = before === null && Object.keys(result.settings).length === 0;
    const now = await readTextFile(path);
    const same = "text" in file && "text" in now && now.text === file.text;
    if (!same && attempt < 5) continue;
    if (!same) throw new StoreError("STORE_WRITE_FAILED", `cannot change ${path}: another program keeps changing it; close it (Claude Code) and run the uninstall again`);
    // A link (a dotfiles repository) stays a link: its target is what is replaced or removed.
    const target = settingsLinkTarget(path);
    const mode = statSync(target).mode & 0o777;
    if (restore) {
      renameSync(backup, target); // atomic, and the bytes (BOM, indentation, key order) are the user's own
      chmodSync(target, mode);
      return { ...result, outcome: "restored", backupRemoved: backup };
    }
    if (deleteFile) unlinkSync(target);
    else {
      await writeFileAtomically(target, `${JSON.stringify(result.settings, null, 2)}\n`);
      chmodSync(target, mode);
    }
    return { ...result, outcome: deleteFile ? "deleted" : "rewritten", backupRemoved: removeIfPresent(backup) };
  }
}

/** The backup's settings, or null when there is none or it is not a JSON object (then it is only removed). */
async function backupSettings(backup: string): Promise<Record<string, unknown> | null> {
  const file = await readTextFile(backup);
  if (!("text" in file)) return null;
  try {
    return parseSettingsObject(backup, file);
  } catch {
    return null;
  }
}

function removeIfPresent(path: string): string | null {
  try {
    unlinkSync(path);
    return path;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StoreError("STORE_WRITE_FAILED", `cannot remove ${path}: ${(error as Error).message}; remove it by hand`, { cause: error });
  }
}

/** Equal as JSON values, whatever the order of keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, index) => sameJson(item, (b as unknown[])[index]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
