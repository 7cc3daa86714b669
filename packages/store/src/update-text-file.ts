import { chmodSync, copyFileSync, statSync } from "node:fs";
import { readTextFile } from "./read-text-file.js";
import { settingsLinkTarget } from "./settings-link-target.js";
import { StoreError } from "./store-error.js";
import { writeFileAtomically } from "./write-file-atomically.js";

/**
 * Rewrites a text file (an agent's config: JSON, TOML) through `change`, atomically, keeping a
 * backup of the previous version beside it (`<file>.iflow-memory.bak`). `change` gets the file's
 * text, or null when there is none, and may throw to refuse it (a file it cannot parse). A file
 * changed by another program while `change` ran is read again, never written over. A file that
 * existed keeps its mode; a new one is private (0600); a symbolic link stays one (its target is
 * rewritten).
 *
 * @example
 * await updateTextFile("/home/ada/.codex/config.toml", (text) => ({ text: `${text ?? ""}[mcp_servers.x]\n`, changed: true }));
 */
export async function updateTextFile<T extends { changed: boolean; text: string }>(
  path: string,
  change: (text: string | null) => T,
  options: { dryRun?: boolean } = {},
): Promise<T & { backup: string | null }> {
  for (let attempt = 1; ; attempt++) {
    const file = await readTextFile(path);
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const result = change("text" in file ? file.text : null);
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
    // A link (a dotfiles repository) stays a link: its target is what is replaced, atomically.
    const target = settingsLinkTarget(path);
    const mode = "text" in file ? statSync(target).mode & 0o777 : null;
    await writeFileAtomically(target, result.text);
    if (mode !== null) chmodSync(target, mode);
    return { ...result, backup };
  }
}
