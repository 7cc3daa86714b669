import { chmodSync, renameSync, statSync, unlinkSync } from "node:fs";
import { parseSettingsObject } from "./parse-settings-object.js";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { settingsLinkTarget } from "./settings-link-target.js";
import { settingsText } from "./update-settings-file.js";
import { writeFileAtomically } from "./write-file-atomically.js";

/** What `revertSettingsFile` (or `revertTextFile`) did to the file. */
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
 * is rewritten (2-space JSON; with `comments`, a file that holds comments keeps them, as
 * `updateSettingsFile` keeps them), or deleted when nothing is left of it and no backup says
 * there was a file before. Once that succeeded — or there was nothing to remove — the backup is
 * removed. A file that is not a JSON object is never touched; a change another program makes
 * meanwhile (Claude Code's `~/.claude.json`) is read again, never overwritten. The result holds
 * the `text` without our entries (with `dryRun`, nothing is changed: the outcome and text are
 * those there would be).
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
  options: { dryRun?: boolean; comments?: boolean } = {},
): Promise<T & { settings: Record<string, unknown>; text: string; outcome: SettingsRevertOutcome; backupRemoved: string | null }> {
  const comments = options.comments === true;
  return await revertTextFile(
    path,
    (text) => {
      const before = parseSettingsObject(path, text === null ? { missing: true } : { text }, { comments });
      const result = remove(before);
      return { ...result, text: result.changed ? settingsText(path, text, before, result.settings, comments) : (text ?? ""), empty: Object.keys(result.settings).length === 0 };
    },
    (backup, result) => {
      const before = backupSettings(backup, comments);
      return before === null ? null : sameJson(before, result.settings) || sameJson(before, result.keptEmpty);
    },
    options,
  );
}

/**
 * Undoes `updateTextFile`'s install in a text file (an agent's config): `remove` gives the text
 * without our entries (`changed`: there were some), and whether nothing is left of it (`empty`);
 * `restores` says whether the backup `updateTextFile` kept (`<file>.iflow-memory.bak`) holds
 * what the removal gives (null: the backup is not such a file, as when there is none). Then the
 * backup is moved back over the file (byte for byte what it was before the install); otherwise
 * the file is written as `remove` gives it, or deleted when nothing is left of it and no backup
 * says there was a file before. Once that succeeded — or there was nothing to remove — the backup
 * is removed. `remove` may throw to refuse the file (one it cannot parse: nothing is changed); a
 * change another program makes meanwhile is read again, never overwritten. A link stays a link.
 * With `dryRun`, nothing is changed and the outcome is the one there would be.
 *
 * @example
 * const result = await revertTextFile("/home/ada/.codex/config.toml", (text) => ({ ...withoutOurs(text), empty: false }), (backup, result) => backup === result.text);
 * result.outcome; // "restored"
 */
export async function revertTextFile<T extends { changed: boolean; text: string; empty: boolean }>(
  path: string,
  remove: (text: string | null) => T,
  restores: (backup: string, result: T) => boolean | null,
  options: { dryRun?: boolean } = {},
): Promise<T & { outcome: SettingsRevertOutcome; backupRemoved: string | null }> {
  const backup = `${path}.iflow-memory.bak`;
  for (let attempt = 1; ; attempt++) {
    const file = await readTextFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const result = remove("text" in file ? file.text : null);
    if (!result.changed) return { ...result, outcome: "unchanged", backupRemoved: options.dryRun === true ? null : removeIfPresent(backup) };
    const kept = await readTextFile(backup);
    const matches = "text" in kept ? restores(kept.text, result) : null;
    const deleteFile = matches === null && result.empty;
    if (options.dryRun === true) return { ...result, outcome: matches === true ? "restored" : deleteFile ? "deleted" : "rewritten", backupRemoved: null };
    const now = await readTextFile(path);
    const same = "text" in file && "text" in now && now.text === file.text;
    if (!same && attempt < 5) continue;
    if (!same) throw new StoreError("STORE_WRITE_FAILED", `cannot change ${path}: another program keeps changing it; close it (Claude Code) and run the uninstall again`);
    // A link (a dotfiles repository) stays a link: its target is what is replaced or removed.
    const target = settingsLinkTarget(path);
    const mode = statSync(target).mode & 0o777;
    if (matches === true) {
      renameSync(backup, target); // atomic, and the bytes (BOM, indentation, key order) are the user's own
      chmodSync(target, mode);
      return { ...result, outcome: "restored", backupRemoved: backup };
    }
    if (deleteFile) unlinkSync(target);
    else {
      await writeFileAtomically(target, result.text);
      chmodSync(target, mode);
    }
    return { ...result, outcome: deleteFile ? "deleted" : "rewritten", backupRemoved: removeIfPresent(backup) };
  }
}

/** The backup's settings, or null when it is not a JSON object (then it is only removed). */
function backupSettings(text: string, comments: boolean): Record<string, unknown> | null {
  try {
    return parseSettingsObject("backup", { text }, { comments });
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
