import { parseSettingsObject } from "./parse-settings-object.js";
import { updateTextFile } from "./update-text-file.js";

/**
 * Rewrites a JSON settings file through `change`, atomically, keeping a backup of the previous
 * version beside it (`<file>.iflow-memory.bak`). A missing file is `{}`; a file that is not a
 * JSON object is never touched (the error names the file and the position). A symbolic link (a
 * dotfiles repository) stays a link: its target is rewritten.
 *
 * @example
 * await updateSettingsFile("/home/ada/.claude/settings.json", (settings) => ({ settings: next, changed: true }));
 */
export async function updateSettingsFile<T extends { changed: boolean }>(
  path: string,
  change: (settings: Record<string, unknown>) => T & { settings: Record<string, unknown> },
  options: { dryRun?: boolean } = {},
): Promise<T & { settings: Record<string, unknown>; backup: string | null }> {
  // A file another program writes too (Claude Code's ~/.claude.json): if it changed while the
  // change was computed, `updateTextFile` starts again from its new content rather than write over it.
  const { text: _text, ...result } = await updateTextFile(
    path,
    (text) => {
      const changed = change(parseSettingsObject(path, text === null ? { missing: true } : { text }));
      return { ...changed, text: `${JSON.stringify(changed.settings, null, 2)}\n` };
    },
    options,
  );
  return result as unknown as T & { settings: Record<string, unknown>; backup: string | null };
}
