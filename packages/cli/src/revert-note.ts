import type { SettingsRevertOutcome } from "@iflow-memory/store";

/**
 * The line after an uninstall's message: how the file was left (`revertSettingsFile`,
 * `revertTextFile`), and the backup that went.
 *
 * @example
 * revertNote("/home/ada/.codex/hooks.json", "deleted", null);
 * // "Removed /home/ada/.codex/hooks.json: it held nothing else, and there was none before the install.\n"
 */
export function revertNote(path: string, outcome: SettingsRevertOutcome, backupRemoved: string | null): string {
  if (outcome === "restored") return `${path} is again as it was before the install (its backup put back).\n`;
  if (outcome === "deleted") return `Removed ${path}: it held nothing else, and there was none before the install.\n`;
  return backupRemoved === null ? "" : `Removed the backup ${backupRemoved}.\n`;
}

/**
 * What a dry run of an uninstall says about a file: nothing changed, and what the uninstall would
 * say (its message, and how the file would be left).
 *
 * @example
 * dryRunNote("/home/ada/.codex/hooks.json", "Removed the iflow-memory SessionStart hook from /home/ada/.codex/hooks.json.", "deleted");
 * // "(dry run: /home/ada/.codex/hooks.json not changed; it would say: Removed … Removed /home/ada/.codex/hooks.json: it held nothing else, and there was none before the install.)\n"
 */
export function dryRunNote(path: string, message: string, outcome: SettingsRevertOutcome): string {
  const note = revertNote(path, outcome, null).trim();
  return `(dry run: ${path} not changed; it would say: ${message}${note === "" ? "" : ` ${note}`})\n`;
}

/**
 * What an uninstall says of the hooks it took out of a settings file (`removeCommandHooks`' `removed`).
 *
 * @example
 * removedHooksMessage(["SessionStart", "UserPromptSubmit"], "/home/ada/.claude/settings.json");
 * // "Removed the iflow-memory SessionStart and UserPromptSubmit hooks from /home/ada/.claude/settings.json."
 */
export function removedHooksMessage(removed: readonly string[], path: string): string {
  return removed.length > 0 ? `Removed the iflow-memory ${removed.join(" and ")} hook${removed.length > 1 ? "s" : ""} from ${path}.` : `No iflow-memory hook in ${path}; nothing changed.`;
}
