import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readGitState } from "./read-git-state.js";

const A = "a".repeat(40);
const B = "b".repeat(40);

function files(root: string, entries: Record<string, string>): void {
  for (const [path, text] of Object.entries(entries)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe("readGitState", () => {
  it("reads the branch and the default branch from loose refs, from a folder below the repository's top", () => {
    const root = makeTempDir();
    files(root, { ".git/HEAD": "ref: refs/heads/fix/timeouts\n", ".git/refs/heads/fix/timeouts": `${B}\n`, ".git/refs/heads/master": `${A}\n`, "src/deep/x": "" });
    expect(readGitState(join(root, "src/deep"))).toEqual({
      repositoryRoot: root,
      commonDir: join(root, ".git"),
      branch: "fix/timeouts",
      hasCommits: true,
      headCommit: B,
      defaultRef: "refs/heads/master",
      defaultCommit: A,
      onDefaultBranch: false,
      notes: [],
    });
  });

  it("follows a worktree's .git file and commondir to packed refs, origin's HEAD first", () => {
    const base = makeTempDir();
    const worktree = join(base, "wt");
    files(base, {
      "wt/.git": "gitdir: ../main/.git/worktrees/wt\n",
      "main/.git/worktrees/wt/HEAD": "ref: refs/heads/feature/034-retries\n",
      "main/.git/worktrees/wt/commondir": "../..\n",
      "main/.git/packed-refs": `# pack-refs with: peeled fully-peeled sorted\n${B} refs/heads/feature/034-retries\n${A} refs/heads/main\n${A} refs/remotes/origin/trunk\n^${B}\n`,
      "main/.git/refs/remotes/origin/HEAD": "ref: refs/remotes/origin/trunk\n",
    });
    expect(readGitState(worktree)).toEqual({
      repositoryRoot: worktree,
      commonDir: join(base, "main/.git"),
      branch: "feature/034-retries",
      hasCommits: true,
      headCommit: B,
      defaultRef: "refs/remotes/origin/trunk",
      defaultCommit: A,
      onDefaultBranch: false,
      notes: [],
    });
  });

  it("passes over an origin HEAD whose branch is gone, and prefers main to master", () => {
    const root = makeTempDir();
    files(root, { ".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": A, ".git/refs/heads/master": A, ".git/refs/remotes/origin/HEAD": "ref: refs/remotes/origin/gone\n" });
    expect(readGitState(root)).toMatchObject({ branch: "main", defaultRef: "refs/heads/main", onDefaultBranch: true });
  });

  it("has no branch on a detached HEAD, on the default branch when it is at the default's commit", () => {
    const root = makeTempDir();
    files(root, { ".git/HEAD": `${A}\n`, ".git/refs/heads/main": `${A}\n` });
    const atMain = readGitState(root);
    files(root, { ".git/HEAD": `${B}\n` });
    expect([atMain, readGitState(root)]).toEqual([
      { repositoryRoot: root, commonDir: join(root, ".git"), branch: null, hasCommits: true, headCommit: A, defaultRef: "refs/heads/main", defaultCommit: A, onDefaultBranch: true, notes: [] },
      { repositoryRoot: root, commonDir: join(root, ".git"), branch: null, hasCommits: true, headCommit: B, defaultRef: "refs/heads/main", defaultCommit: A, onDefaultBranch: false, notes: [] },
    ]);
  });

  it("knows a repository without commits, one in reftable format, and a broken HEAD", () => {
    const unborn = makeTempDir();
    files(unborn, { ".git/HEAD": "ref: refs/heads/main\n" });
    const reftable = makeTempDir();
    files(reftable, { ".git/HEAD": "ref: refs/heads/.invalid\n", ".git/reftable/tables.list": "" });
    const broken = makeTempDir();
    files(broken, { ".git/HEAD": "garbage" });
    expect([readGitState(unborn), readGitState(reftable), readGitState(broken)]).toEqual([
      { repositoryRoot: unborn, commonDir: join(unborn, ".git"), branch: "main", hasCommits: false, headCommit: null, defaultRef: null, defaultCommit: null, onDefaultBranch: false, notes: [] },
      {
        repositoryRoot: reftable,
        commonDir: join(reftable, ".git"),
        branch: null,
        hasCommits: true,
        headCommit: null,
        defaultRef: null,
        defaultCommit: null,
        onDefaultBranch: false,
        notes: ["the repository keeps its refs in a reftable; branch not read"],
      },
      { repositoryRoot: broken, commonDir: join(broken, ".git"), branch: null, hasCommits: false, headCommit: null, defaultRef: null, defaultCommit: null, onDefaultBranch: false, notes: [".git/HEAD cannot be read; branch skipped"] },
    ]);
  });

  it("is null outside a repository", () => {
    expect(readGitState(makeTempDir())).toBeNull();
  });
});
