import { chmodSync, copyFileSync, statSync } from "node:fs";
import { parseSettingsObject } from "./parse-settings-object.js";
import { readTextFile } from "./read-text-file.js";
import { settingsLinkTarget } from "./settings-link-target.js";
import { StoreError } from "./store-error.js";
import { writeFileAtomically } from "./write-file-atomically.js";

/**
 * Rewrites a JSON settings file through `change`, atomically, keeping a backup of the previous
 * version beside it (`<file>.iflow-memory.bak`). A missing file is `{}`; a file that is not a
 * JSON object is never touched (the error names the file and the position).
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
  // change was computed, start again from its new content rather than write over it.
  for (let attempt = 1; ; attempt++) {
    const file = await readTextFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const result = change(parseSettingsObject(path, file));
    if (!result.changed || options.dryRun === true) return { ...result, backup: null };
    const now = await readTextFile(path);
    const same = "text" in file ? "text" in now && now.text === file.text : "missing" in now;
    if (!same && attempt < 5) continue;
    if (!same) throw new StoreError("STORE_WRITE_FAILED", `cannot change ${path}: another program keeps changing it; close it (Claude Code) and run setup again`);
    let backup: string | null = null;
    if ("text" in file) {
      backup = `${path}.iflow-memory.bak`;
      copyFileSync(path, backup);
    }
    // A settings file that existed keeps its mode; a new one is private (0600). A link (a
    // dotfiles repository) stays a link: its target is what is replaced, atomically.
    const target = settingsLinkTarget(path);
    const mode = "text" in file ? statSync(target).mode & 0o777 : null;
    await writeFileAtomically(target, `${JSON.stringify(result.settings, null, 2)}\n`);
    if (mode !== null) chmodSync(target, mode);
    return { ...result, backup };
  }
}
