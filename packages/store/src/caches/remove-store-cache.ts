import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { StoreError } from "../store-error.js";
import { storeCacheDir } from "./injection-cache.js";

/**
 * Removes the global store's `.cache/` folder — derived data only (the hooks' injection and
 * ranking caches, git's answers, sessions' ledgers, V8's code cache), all worked out again at the
 * next session start — and says how much it held; null when there was none. The store's own
 * files (the three memory files, history, feedback, promotions, tracking) are never touched.
 *
 * @example
 * removeStoreCache("/home/ada/.claude/iflow/memory");
 * // { path: "/home/ada/.claude/iflow/memory/.cache", files: 14, bytes: 712_344 }
 */
export function removeStoreCache(globalStoreDir: string): { path: string; files: number; bytes: number } | null {
  const path = storeCacheDir(globalStoreDir);
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  // A link or a file where the cache should be is not ours to follow or remove.
  if (!stats.isDirectory()) throw new StoreError("STORE_NOT_DIRECTORY", `will not remove ${path}: it is not a folder; remove it by hand if it is not yours`);
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += lstatSync(join(entry.parentPath, entry.name)).size;
  }
  try {
    rmSync(path, { recursive: true, force: true });
  } catch (error) {
    throw new StoreError("STORE_WRITE_FAILED", `cannot remove ${path}: ${(error as Error).message}; remove it by hand (it holds derived data only)`, { cause: error });
  }
  return { path, files, bytes };
}
