import { readlinkSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { StoreError } from "./store-error.js";

/**
 * The file a settings path finally names, through any symbolic links (a dotfiles repository),
 * also when the last one points to a file that does not exist yet (it is then created there):
 * what a rewrite replaces, atomically, so that the link stays a link.
 *
 * @example
 * settingsLinkTarget("/home/ada/.claude/settings.json"); // "/home/ada/dotfiles/claude/settings.json"
 */
export function settingsLinkTarget(path: string): string {
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
