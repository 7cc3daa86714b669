import { chmodSync, copyFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { readTextFile } from "./read-text-file.js";
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
    const result = change(parseSettings(path, file));
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
    const target = linkTarget(path);
    const mode = "text" in file ? statSync(target).mode & 0o777 : null;
    await writeFileAtomically(target, `${JSON.stringify(result.settings, null, 2)}\n`);
    if (mode !== null) chmodSync(target, mode);
    return { ...result, backup };
  }
}

// The file a path finally names, through any symbolic links, also when the last one points to a
// file that does not exist yet (it is then created there).
function linkTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    let current = path;
    for (let hops = 0; hops < 40; hops++) {
      let link: string;
      try {
        link = readlinkSync(current);
      } catch {
        return current;
      }
      current = resolve(dirname(current), link);
    }
    throw new StoreError("STORE_WRITE_FAILED", `cannot change ${path}: it is a loop of symbolic links; point it at a file, then run setup again`);
  }
}

function parseSettings(path: string, file: { text: string } | { missing: true }): Record<string, unknown> {
  if (!("text" in file) || file.text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.text);
  } catch (error) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is not valid JSON (${(error as Error).message}); fix it by hand, then run setup again`, { cause: error });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is JSON but not an object of settings; fix it by hand, then run setup again`);
  }
  return parsed as Record<string, unknown>;
}
