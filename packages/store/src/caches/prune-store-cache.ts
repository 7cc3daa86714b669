import { closeSync, existsSync, lstatSync, openSync, readdirSync, statSync, unlinkSync, utimesSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { codeCacheFile, codeCacheOrigin } from "./code-cache-file.js";

/** A cache not read or written for this long is removed by `pruneStoreCache`. */
export const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** The cache folder is looked over at most this often (its `.pruned` marker's time says when last). */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
/** What a write that did not finish left (a process killed between its write and its rename) is removed after this long. */
const TEMPORARY_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const MARKER = ".pruned";

// What is kept per project (the hooks' injection, its ranking and plan, git's log, the inject
// command's output, a background refresh's claim) and per memory file (`files/`); the temporary
// files of atomic writes beside them. Anything else in the folder is left alone.
const PROJECT_CACHE = /^(?:injection|git-log|inject)-[0-9a-f]+(?:\.plan|\.ranking)?\.json(?:\.refreshing)?$/;
const FILE_CACHE = /^[0-9a-f]+-[0-9a-f]+\.json$/;
// V8's code cache of a bundle per install and node (`codeCacheFile`), and as earlier versions named
// it, one per bundle (what no version reads any more).
const CODE_CACHE = /^code-[a-z0-9-]+-[0-9a-f]{8}\.bin$/;
const UNTAGGED_CODE_CACHE = /^code-[a-z-]+\.bin$/;
const TEMPORARY = /\.(?:iflow-)?[0-9a-f]+\.tmp$/;

/**
 * Removes from a global store's cache folder (`.cache`) what no session has used for
 * `CACHE_MAX_AGE_MS`: the caches of projects and memory files since deleted or left (a worktree
 * or a scratch clone makes its own), which nothing else would remove. Used means read or written
 * (the later of its access and modification times; where the file system keeps no access times, a
 * cache in use but unchanged for that long is removed and made again at the next session start).
 * V8's code caches are removed when the bundle they were compiled from is gone (an install
 * removed, or replaced by one elsewhere), those named as earlier versions named them, and those of
 * another node (version, architecture) than the one pruning that no session used for as long
 * (a node upgraded from leaves its caches behind); the pruning node's own are kept while their
 * bundle is there. Looks at
 * most once a day, so that it can be called wherever caches are written; never follows links,
 * never touches the sessions' ledgers (pruned on their own) or anything it does not know. Returns
 * how many files it removed; never throws.
 *
 * @example
 * pruneStoreCache(storeCacheDir("/home/ada/.claude/iflow/memory")); // 0, or what it removed
 */
export function pruneStoreCache(cacheDir: string, now = Date.now()): number {
  try {
    const marker = join(cacheDir, MARKER);
    const last = statSync(marker, { throwIfNoEntry: false });
    // A marker in the future (the clock was set back) does not hold the pruning off.
    if (last !== undefined && last.mtimeMs <= now && now - last.mtimeMs < PRUNE_EVERY_MS) return 0;
    // Marked first: a folder that cannot be marked is not looked over at every call.
    closeSync(openSync(marker, "w", 0o600));
    utimesSync(marker, now / 1000, now / 1000);
    return removeStale(cacheDir, staleAt(now, PROJECT_CACHE)) + removeStale(join(cacheDir, "files"), staleAt(now, FILE_CACHE));
  } catch {
    return 0;
  }
}

// Removes the files of `folder` that `stale` picks (by name, path and `lstat`): never a link or a folder.
function removeStale(folder: string, stale: (name: string, path: string, info: Stats) => boolean): number {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(folder, name);
    try {
      const info = lstatSync(path);
      if (!info.isFile() || !stale(name, path, info)) continue;
      unlinkSync(path);
      removed += 1;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

// Whether a file of a cache folder whose caches are named as `caches` may go at `now`: a cache no
// one used for a month, what a write that did not finish left after a day, V8's code cache of a
// bundle that is gone, named as earlier versions named them, or another node's unused for a
// month; nothing else.
function staleAt(now: number, caches: RegExp): (name: string, path: string, info: Stats) => boolean {
  return (name, path, info) => {
    const unused = now - Math.max(info.atimeMs, info.mtimeMs);
    if (TEMPORARY.test(name)) return unused > TEMPORARY_MAX_AGE_MS;
    if (caches.test(name)) return unused > CACHE_MAX_AGE_MS;
    if (CODE_CACHE.test(name)) {
      const origin = codeCacheOrigin(path);
      if (origin === null || !existsSync(origin.bundle) || codeCacheFile(dirname(path), origin.bundle, origin.node) !== path) return true;
      return (origin.node.version !== process.version || origin.node.arch !== process.arch) && unused > CACHE_MAX_AGE_MS;
    }
    return UNTAGGED_CODE_CACHE.test(name);
  };
}
