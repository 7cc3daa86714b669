import { statSync } from "node:fs";
import { join } from "node:path";
import { asciiJson } from "../ascii-json.js";
import { readTextFileSync } from "../read-text-file.js";
import { shortHash } from "../short-hash.js";
import { writeFileAtomically } from "../write-file-atomically.js";
import type { GitState } from "./read-git-state.js";

/**
 * What a `git log` over `args` answers in the repository `git` describes, as a string that changes
 * whenever that answer can: the commits HEAD and the default branch name (history is immutable,
 * so the same two commits give the same log), the arguments, the git variables of `env`, and the
 * files that could make git see other history for the same commits — shallow boundaries, grafts,
 * replaced objects (loose or packed refs) and the repository's config. `null` when the commits
 * cannot be read from the files (no commits yet, refs in a reftable): git is asked every time.
 *
 * @example
 * gitLogKey(readGitState(root)!, ["log", "-n", "5", "HEAD"], process.env);
 * // "log\t-n\t5\tHEAD\n9fceb02…\nrefs/heads/main\n2d4e1a7…\n…"
 */
export function gitLogKey(git: GitState, args: readonly string[], env: Record<string, string | undefined>): string | null {
  if (git.headCommit === null) return null;
  const stamps = ["shallow", "info/grafts", "refs/replace", "packed-refs", "config"].map((name) => {
    try {
      const info = statSync(join(git.commonDir, name), { bigint: true, throwIfNoEntry: false });
      return info === undefined ? `${name} -` : `${name} ${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
    } catch (error) {
      return `${name} ${(error as NodeJS.ErrnoException).code ?? "?"}`;
    }
  });
  const gitVariables = Object.keys(env)
    .filter((key) => key.startsWith("GIT_"))
    .sort()
    .map((key) => `${key}=${env[key]}`);
  return [args.join("\t"), git.headCommit, git.defaultRef ?? "-", git.defaultCommit ?? "-", ...stamps, ...gitVariables].join("\n");
}

/** Where the last `git log` answer of a repository is kept: one small file per repository in `cacheDir`. */
export function gitLogCachePath(cacheDir: string, repositoryRoot: string): string {
  return join(cacheDir, `git-log-${shortHash(repositoryRoot)}.json`);
}

/**
 * The `git log` output saved for `key` in the repository at `repositoryRoot`, else null (none
 * yet, another key, unreadable or torn: the caller runs git).
 *
 * @example
 * readCachedGitLog(cacheDir, root, key) ?? (await runGit(args, options));
 */
export function readCachedGitLog(cacheDir: string, repositoryRoot: string, key: string): string | null {
  const file = readTextFileSync(gitLogCachePath(cacheDir, repositoryRoot));
  if (!("text" in file)) return null;
  try {
    const cached = JSON.parse(file.text) as { repositoryRoot?: unknown; key?: unknown; stdout?: unknown };
    return cached.repositoryRoot === repositoryRoot && cached.key === key && typeof cached.stdout === "string" ? cached.stdout : null;
  } catch {
    return null;
  }
}

/**
 * Saves a `git log` answer for `key` (atomically, mode 0600: commit subjects and file names are
 * the user's). Never throws: a cache that cannot be written only costs the next call a `git log`.
 */
export function writeCachedGitLog(cacheDir: string, repositoryRoot: string, key: string, stdout: string): void {
  writeFileAtomically(gitLogCachePath(cacheDir, repositoryRoot), asciiJson({ repositoryRoot, key, stdout }), { durable: false }).catch(() => undefined);
}
