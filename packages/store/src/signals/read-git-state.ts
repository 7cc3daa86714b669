import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** What the files under `.git` say, read without running git. */
export interface GitState {
  /** The working tree's top folder (where `.git` is): git's paths are relative to it. */
  repositoryRoot: string;
  /** The folder with the repository's refs and objects: `.git`, or the main one's for a worktree. */
  commonDir: string;
  /** The checked-out branch's short name; `null` on a detached HEAD or when refs are unreadable. */
  branch: string | null;
  /** Whether HEAD names a commit (false in a repository without commits yet). */
  hasCommits: boolean;
  /** The commit HEAD names; `null` without commits, or when refs are in a reftable. */
  headCommit: string | null;
  /**
   * The default branch's full ref (`refs/remotes/origin/main`, `refs/heads/main`, `refs/heads/master`),
   * `null` when none exists.
   */
  defaultRef: string | null;
  /** The commit `defaultRef` names; `null` when there is no default branch. */
  defaultCommit: string | null;
  /** Whether HEAD is the default branch (by name, or a detached HEAD at the default's commit). */
  onDefaultBranch: boolean;
  /** What could not be read, for `skipped`. */
  notes: string[];
}

// Refs and HEAD are a few dozen bytes; packed-refs can be large in repositories with many tags.
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_PACKED_REFS_BYTES = 8 * 1024 * 1024;

/**
 * Reads the branch and the default branch from the files under `.git`, from the nearest `.git`
 * at or above `projectRoot` (a folder, or a file `gitdir: …` as in a worktree or submodule,
 * whose refs live in the folder its `commondir` names). `null` when there is no repository.
 *
 * The default branch is the remote's HEAD (`refs/remotes/origin/HEAD`) when it exists and
 * points at a ref that exists, else `main`, else `master`. Never throws.
 *
 * @example
 * readGitState("/work/webshop/packages/cart");
 * // { repositoryRoot: "/work/webshop", commonDir: "/work/webshop/.git", branch: "fix/embedding-call-timeouts",
 * //   hasCommits: true, headCommit: "9fceb02…", defaultRef: "refs/remotes/origin/main", defaultCommit: "2d4e1a7…",
 * //   onDefaultBranch: false, notes: [] }
 */
export function readGitState(projectRoot: string): GitState | null {
  const location = findGitDirectory(resolve(projectRoot));
  if (location === null) return null;
  const { repositoryRoot, gitDir } = location;
  const notes: string[] = [];
  let commonDir = gitDir;
  const commonDirText = readSmall(join(gitDir, "commondir"), MAX_HEAD_BYTES);
  if (commonDirText !== null && commonDirText.trim() !== "") {
    const named = commonDirText.trim();
    commonDir = isAbsolute(named) ? named : resolve(gitDir, named);
  }

  let packedRefs: Map<string, string> | null | undefined;
  const packed = (): Map<string, string> | null => {
    if (packedRefs !== undefined) return packedRefs;
    packedRefs = new Map();
    const text = readSmall(join(commonDir, "packed-refs"), MAX_PACKED_REFS_BYTES);
    if (text === null) return packedRefs;
    for (const line of text.split("\n")) {
      const match = /^([0-9a-f]{40,64}) (\S+)$/.exec(line);
      if (match !== null) packedRefs.set(match[2]!, match[1]!);
    }
    return packedRefs;
  };
  // The commit a ref names, following symbolic refs; null when it does not exist.
  const resolveRef = (name: string, depth = 0): string | null => {
    if (depth > 5) return null;
    const loose = readSmall(join(name === "HEAD" ? gitDir : commonDir, name), MAX_HEAD_BYTES)?.trim();
    if (loose !== undefined && loose !== "") {
      if (loose.startsWith("ref:")) return resolveRef(loose.slice(4).trim(), depth + 1);
      return /^[0-9a-f]{40,64}$/.test(loose) ? loose : null;
    }
    return packed()?.get(name) ?? null;
  };

  const head = readSmall(join(gitDir, "HEAD"), MAX_HEAD_BYTES)?.trim() ?? "";
  let branch: string | null = null;
  let headCommit: string | null = null;
  let reftable = false;
  if (head.startsWith("ref:")) {
    const ref = head.slice(4).trim();
    if (ref === "refs/heads/.invalid") {
      reftable = true;
      notes.push("the repository keeps its refs in a reftable; branch not read");
    } else {
      branch = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null;
      headCommit = resolveRef(ref);
    }
  } else if (/^[0-9a-f]{40,64}$/.test(head)) {
    headCommit = head;
  } else {
    notes.push(".git/HEAD cannot be read; branch skipped");
  }

  let defaultRef: string | null = null;
  let defaultBranch: string | null = null;
  let defaultCommit: string | null = null;
  const remoteHead = readSmall(join(commonDir, "refs/remotes/origin/HEAD"), MAX_HEAD_BYTES)?.trim();
  if (remoteHead?.startsWith("ref:") === true) {
    const target = remoteHead.slice(4).trim();
    const commit = target.startsWith("refs/remotes/origin/") ? resolveRef(target) : null;
    if (commit !== null) {
      defaultRef = target;
      defaultBranch = target.slice("refs/remotes/origin/".length);
      defaultCommit = commit;
    }
  }
  for (const candidate of ["main", "master"]) {
    if (defaultRef !== null) break;
    const commit = resolveRef(`refs/heads/${candidate}`);
    if (commit !== null) {
      defaultRef = `refs/heads/${candidate}`;
      defaultBranch = candidate;
      defaultCommit = commit;
    }
  }

  const onDefaultBranch = defaultRef !== null && (branch !== null ? branch === defaultBranch : headCommit !== null && headCommit === defaultCommit);
  // A repository in reftable format has commits we cannot see from here; git will tell.
  const hasCommits = headCommit !== null || reftable;
  return { repositoryRoot, commonDir, branch, hasCommits, headCommit, defaultRef, defaultCommit, onDefaultBranch, notes };
}

/** The nearest `.git` at or above `start`, and the git directory it is or names. */
function findGitDirectory(start: string): { repositoryRoot: string; gitDir: string } | null {
  for (let directory = start; ; directory = dirname(directory)) {
    const dotGit = join(directory, ".git");
    try {
      const info = statSync(dotGit);
      if (info.isDirectory()) return { repositoryRoot: directory, gitDir: dotGit };
      if (info.isFile()) {
        const match = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit, MAX_HEAD_BYTES) ?? "");
        if (match !== null) return { repositoryRoot: directory, gitDir: resolve(directory, match[1]!) };
      }
    } catch {
      // no .git here
    }
    if (dirname(directory) === directory) return null;
  }
}

function readSmall(path: string, maxBytes: number): string | null {
  try {
    // Missing (a repository's commondir, its remote's HEAD): told without an error thrown.
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    if (size === undefined || size > maxBytes) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
