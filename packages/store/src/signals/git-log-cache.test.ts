import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { gitLogCachePath, gitLogKey, readCachedGitLog, writeCachedGitLog } from "./git-log-cache.js";
import { readGitState } from "./read-git-state.js";

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "t@example.com" };
const ARGS = ["log", "-z", "-n", "5", "HEAD", "--"];

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "commit.gpgsign=false", ...args], { cwd, env: GIT_ENV });
}

function repository(): string {
  const root = makeTempDir();
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, "a.txt"), "a\n");
  git(root, "add", "a.txt");
  git(root, "commit", "-q", "-m", "First");
  return root;
}

const keyOf = (root: string, args = ARGS, env: Record<string, string | undefined> = { PATH: "/usr/bin" }) => gitLogKey(readGitState(root)!, args, env);

describe("gitLogKey", () => {
  it("stays the same while the commits do, whatever happens in the working tree", () => {
    const root = repository();
    const before = keyOf(root);
    writeFileSync(join(root, "a.txt"), "changed\n");
    writeFileSync(join(root, "new.txt"), "untracked\n");
    git(root, "add", "new.txt");
    expect(keyOf(root)).toBe(before);
  });

  it("changes with a commit, a checkout, the arguments, git's variables and the files that change history", () => {
    const root = repository();
    const keys = [keyOf(root), keyOf(root, ["log", "-n", "6", "HEAD", "--"]), keyOf(root, ARGS, { PATH: "/usr/bin", GIT_REPLACE_REF_BASE: "refs/other/" })];
    git(root, "commit", "-q", "--allow-empty", "-m", "Second");
    keys.push(keyOf(root));
    git(root, "checkout", "-q", "-b", "topic", "HEAD~1");
    keys.push(keyOf(root));
    mkdirSync(join(root, ".git/refs/replace"));
    keys.push(keyOf(root));
    writeFileSync(join(root, ".git/shallow"), "");
    keys.push(keyOf(root));
    git(root, "config", "i18n.logOutputEncoding", "ISO-8859-1");
    keys.push(keyOf(root));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("is null without commits, where the log cannot be keyed by them", () => {
    const root = makeTempDir();
    git(root, "init", "-q", "-b", "main");
    expect(keyOf(root)).toBeNull();
  });
});

describe("readCachedGitLog", () => {
  it("gives back what was saved for the same repository and key, and null for any other", () => {
    const cacheDir = join(makeTempDir(), ".cache");
    writeCachedGitLog(cacheDir, "/work/a", "key 1", "\x1eFirst\0");
    expect([
      readCachedGitLog(cacheDir, "/work/a", "key 1"),
      readCachedGitLog(cacheDir, "/work/a", "key 2"),
      readCachedGitLog(cacheDir, "/work/b", "key 1"),
      (statSync(gitLogCachePath(cacheDir, "/work/a")).mode & 0o777).toString(8),
    ]).toEqual(["\x1eFirst\0", null, null, "600"]);
  });

  it("is null for a file that is torn or not JSON, and writing where no folder can be made throws nothing", () => {
    const cacheDir = makeTempDir();
    writeFileSync(gitLogCachePath(cacheDir, "/work/a"), '{"repositoryRoot":"/work/a","key":"k","stdout":"\\u001eFir');
    const blocked = join(makeTempDir(), "file");
    writeFileSync(blocked, "");
    expect(() => writeCachedGitLog(join(blocked, "cache"), "/work/a", "k", "x")).not.toThrow();
    expect(readCachedGitLog(cacheDir, "/work/a", "k")).toBeNull();
  });
});
