import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { dedent, isRunning, makeTempDir, slowFakeGit } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { gatherSessionSignals, gatherSessionSignalsNow, startSessionSignals, type SessionSignals } from "./gather-session-signals.js";

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", ...args], { cwd, env: GIT_ENV, encoding: "utf8" });
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Writes the files, stages just them and commits. */
function commit(root: string, message: string, files: Record<string, string>): void {
  write(root, files);
  git(root, "add", "--", ...Object.keys(files));
  git(root, "commit", "-q", "-m", message);
}

/** A repository on `main` with one commit. */
function repository(into = makeTempDir()): string {
  const root = join(into, "semantic-memory");
  mkdirSync(root);
  git(root, "init", "-q", "-b", "main");
  commit(root, "Initial layout", { "a.py": "a\n", "semantic_memory/retry.py": "retry\n", "semantic_memory/embed.py": "embed\n" });
  return root;
}

/** A branch with its own commits, a merge of the default branch, and staged, unstaged and untracked changes. */
function branchMidWork(): string {
  const root = repository();
  git(root, "checkout", "-q", "-b", "fix/embedding-call-timeouts");
  commit(root, "Retry embedding calls", { "semantic_memory/retry.py": "retry with backoff\n" });
  git(root, "checkout", "-q", "main");
  commit(root, "Document the cache", { "docs.md": "cache\n" });
  git(root, "checkout", "-q", "fix/embedding-call-timeouts");
  git(root, "merge", "-q", "--no-edit", "--no-ff", "main");
  commit(root, "Time out embedding calls", { "semantic_memory/timeouts.py": "10 s\n" });
  write(root, { "staged.py": "new\n" });
  git(root, "add", "staged.py");
  write(root, { "a.py": "changed\n", "semantic_memory/retry.py": "retry again\n", "notes/plan.md": "plan\n", "todo.txt": "todo\n" });
  return root;
}

const NO_SIGNALS = { branch: null, changedFiles: [], commitSubjects: [], feature: null, stack: [], skipped: [] } satisfies Omit<SessionSignals, "project">;
// Generous: a test machine may be loaded; these tests check outcomes, the benchmark measures time.
const TIMEOUT_MS = 5000;
const BRANCH_MID_WORK: SessionSignals = {
  ...NO_SIGNALS,
  project: "semantic-memory",
  branch: "fix/embedding-call-timeouts",
  changedFiles: ["a.py", "semantic_memory/retry.py", "staged.py", "notes/", "todo.txt", "semantic_memory/timeouts.py"],
  commitSubjects: ["Time out embedding calls", "Retry embedding calls"],
};

// What a slow git gives on a branch of `repository()` when its budget is 300 ms.
const GAVE_UP_AT_300_MS: SessionSignals = {
  ...NO_SIGNALS,
  project: "semantic-memory",
  branch: "fix/timeouts",
  skipped: [
    "git status did not answer within 300 ms; changed files skipped",
    "git log did not answer within 300 ms; commit subjects and the branch's committed files skipped",
  ],
};

/**
 * Gathers a branch's signals three times with a cache folder — then, after an untracked file, then
 * after a commit — through `gather`, and checks the signals and that git log ran once per pair of
 * commits, git status every time.
 */
async function logOncePerCommits(gather: (options: { projectRoot: string; timeoutMs: number; cacheDir: string; env: Record<string, string | undefined> }) => SessionSignals | Promise<SessionSignals>): Promise<void> {
  const root = repository();
  git(root, "checkout", "-q", "-b", "fix/timeouts");
  commit(root, "Time out embedding calls", { "semantic_memory/timeouts.py": "10 s\n" });
  const noting = notingGit();
  const options = { projectRoot: root, timeoutMs: TIMEOUT_MS, cacheDir: join(makeTempDir(), ".cache"), env: noting.env };

  const first = await gather(options);
  write(root, { "notes.md": "untracked\n" });
  const second = await gather(options);
  commit(root, "Retry embedding calls", { "semantic_memory/retry.py": "retry with backoff\n" });
  const third = await gather(options);

  const expected = { ...NO_SIGNALS, project: "semantic-memory", branch: "fix/timeouts" };
  expect([first, second, third]).toEqual([
    { ...expected, changedFiles: ["semantic_memory/timeouts.py"], commitSubjects: ["Time out embedding calls"] },
    { ...expected, changedFiles: ["notes.md", "semantic_memory/timeouts.py"], commitSubjects: ["Time out embedding calls"] },
    { ...expected, changedFiles: ["notes.md", "semantic_memory/retry.py", "semantic_memory/timeouts.py"], commitSubjects: ["Retry embedding calls", "Time out embedding calls"] },
  ]);
  expect(noting.calls()).toEqual(["log", "log", "status", "status", "status"]);
}

/** A `git` first on PATH that notes each call's command (its second argument) in `calls`, then runs the real one. */
function notingGit(): { env: Record<string, string | undefined>; calls: () => string[] } {
  const bin = makeTempDir();
  const calls = join(bin, "calls");
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$2" >> "${calls}"\nexec "${realGit}" "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  return { env: { ...GIT_ENV, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` }, calls: () => readFileSync(calls, "utf8").trim().split("\n").sort() };
}

describe("gatherSessionSignals", () => {
  it("lists a branch's staged, unstaged, untracked and committed files once each, and its own commit subjects", async () => {
    expect(await gatherSessionSignals({ projectRoot: branchMidWork(), timeoutMs: TIMEOUT_MS })).toEqual(BRANCH_MID_WORK);
  });

  it("gives the last 5 commit subjects and the working tree's changes on the default branch", async () => {
    const root = repository();
    for (let number = 1; number <= 6; number += 1) commit(root, `Change ${number}`, { [`file${number}.txt`]: `${number}\n` });
    write(root, { "file6.txt": "changed\n" });

    expect(await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS })).toEqual({
      ...NO_SIGNALS,
      project: "semantic-memory",
      branch: "main",
      changedFiles: ["file6.txt"],
      commitSubjects: ["Change 6", "Change 5", "Change 4", "Change 3", "Change 2"],
    });
  });

  it("leaves out subjects that say nothing of the work (merges, reverts, wip, typos, version bumps), so that they neither steer nor take a subject's place", async () => {
    const root = repository();
    for (const subject of ["Retry embedding calls", "Merge branch 'main'", "Fix typo", "wip", 'Revert "Retry embedding calls"', "chore(release): 1.2.0"]) {
      commit(root, subject, { "log.txt": `${subject}\n` });
    }
    expect((await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS })).commitSubjects).toEqual(["Retry embedding calls", "Initial layout"]);
    git(root, "checkout", "-q", "-b", "fix/embedding-call-timeouts");
    commit(root, "Time out embedding calls", { "semantic_memory/timeouts.py": "10 s\n" });
    commit(root, "Bump version to 1.2.1", { "version.txt": "1.2.1\n" });
    expect((await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS })).commitSubjects).toEqual(["Time out embedding calls"]);
  });

  it("takes the remote's HEAD for the default branch, its refs packed as a clone leaves them", async () => {
    const origin = repository();
    git(origin, "checkout", "-q", "-b", "trunk");
    commit(origin, "Trunk work", { "trunk.txt": "t\n" });
    const clone = join(makeTempDir(), "clone");
    git(dirname(clone), "clone", "-q", origin, clone);
    git(clone, "checkout", "-q", "-b", "feature/timeouts");
    commit(clone, "Add timeouts", { "timeouts.py": "t\n" });

    const onBranch = await gatherSessionSignals({ projectRoot: clone, timeoutMs: TIMEOUT_MS });
    git(clone, "checkout", "-q", "trunk");
    const onDefault = await gatherSessionSignals({ projectRoot: clone, timeoutMs: TIMEOUT_MS });
    expect([onBranch, onDefault]).toEqual([
      { ...NO_SIGNALS, project: "clone", branch: "feature/timeouts", changedFiles: ["timeouts.py"], commitSubjects: ["Add timeouts"] },
      { ...NO_SIGNALS, project: "clone", branch: "trunk", commitSubjects: ["Trunk work", "Initial layout"] },
    ]);
  });

  it("says a folder outside any repository is not a git repository", async () => {
    const root = makeTempDir();
    expect(await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS })).toEqual({ ...NO_SIGNALS, project: basename(root), skipped: ["not a git repository"] });
  });

  it("has no branch on a detached HEAD but still its changes, and the default's subjects when detached at it", async () => {
    const root = repository();
    git(root, "checkout", "-q", "-b", "work");
    commit(root, "Cache embedding results", { "work.txt": "w\n" });
    git(root, "checkout", "-q", "--detach");
    write(root, { "a.py": "changed\n" });
    const detachedOnWork = await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS });
    git(root, "checkout", "-q", "--detach", "main");
    const detachedOnMain = await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS });

    expect([detachedOnWork, detachedOnMain]).toEqual([
      { ...NO_SIGNALS, project: "semantic-memory", changedFiles: ["a.py", "work.txt"], commitSubjects: ["Cache embedding results"] },
      { ...NO_SIGNALS, project: "semantic-memory", changedFiles: ["a.py"], commitSubjects: ["Initial layout"] },
    ]);
  });

  it("reads a worktree, whose .git is a file naming its git directory", async () => {
    const root = repository();
    const worktree = join(dirname(root), "semantic-memory-timeouts");
    git(root, "worktree", "add", "-q", "-b", "fix/timeouts", worktree);
    commit(worktree, "Time out embedding calls", { "semantic_memory/timeouts.py": "10 s\n" });
    write(worktree, { "semantic_memory/retry.py": "changed\n" });

    expect(readFileSync(join(worktree, ".git"), "utf8")).toMatch(/^gitdir: /);
    expect(await gatherSessionSignals({ projectRoot: worktree, timeoutMs: TIMEOUT_MS })).toEqual({
      ...NO_SIGNALS,
      project: "semantic-memory-timeouts",
      branch: "fix/timeouts",
      changedFiles: ["semantic_memory/retry.py", "semantic_memory/timeouts.py"],
      commitSubjects: ["Time out embedding calls"],
    });
  });

  it("keeps paths relative to the repository when the project is a folder inside it, and finds its feature by a changed file", async () => {
    const root = repository();
    commit(root, "Add the app", {
      "apps/memory/package.json": JSON.stringify({ name: "@acme/memory", dependencies: { openai: "^4" } }),
      "apps/memory/docs/features/034-semantic-memory-retries/spec.md": "# Spec: Retries for embedding calls\n\nEmbedding calls hang when the provider stalls.\n",
      "apps/memory/docs/features/012-old-cache/spec.md": "# Old cache\n\nDone long ago.\n",
    });
    git(root, "checkout", "-q", "-b", "wip");
    write(root, { "apps/memory/docs/features/034-semantic-memory-retries/design.md": "design\n", "a.py": "changed\n" });

    expect(await gatherSessionSignals({ projectRoot: join(root, "apps/memory"), timeoutMs: TIMEOUT_MS })).toEqual({
      ...NO_SIGNALS,
      project: "@acme/memory",
      branch: "wip",
      changedFiles: ["a.py", "apps/memory/docs/features/034-semantic-memory-retries/design.md"],
      feature: { id: "034", slug: "semantic-memory-retries", title: "Retries for embedding calls", summary: "Embedding calls hang when the provider stalls." },
      stack: ["node", "openai"],
    });
  });

  it("finds the feature named by an iflow branch and leaves a stale one alone", async () => {
    const root = repository();
    commit(root, "Features", {
      "docs/features/034-semantic-memory-retries/spec.md": dedent`
        # Specification: Retries for embedding calls

        **Status:** Draft

        ## Problem

        Embedding calls hang when the provider stalls;
        every call needs a timeout and a bounded retry.
      `,
      "docs/features/035-newest-but-stale/spec.md": "# Newest\n\nNot worked on.\n",
      "pyproject.toml": '[project]\nname = "semantic-memory"\ndependencies = ["httpx>=0.27", "tenacity"]\n',
    });
    git(root, "checkout", "-q", "-b", "feature/034-semantic-memory-retries");

    expect(await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS })).toEqual({
      ...NO_SIGNALS,
      project: "semantic-memory",
      branch: "feature/034-semantic-memory-retries",
      feature: {
        id: "034",
        slug: "semantic-memory-retries",
        title: "Retries for embedding calls",
        summary: "Embedding calls hang when the provider stalls; every call needs a timeout and a bounded retry.",
      },
      stack: ["python", "httpx", "tenacity"],
    });
  });

  it("reads a repository without commits yet: its branch and untracked files, no subjects", async () => {
    const root = join(makeTempDir(), "fresh");
    mkdirSync(root);
    git(root, "init", "-q", "-b", "main");
    write(root, { "README.md": "hello\n" });

    expect(await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS })).toEqual({ ...NO_SIGNALS, project: "fresh", branch: "main", changedFiles: ["README.md"] });
  });

  it.skipIf(process.platform === "win32")("gives up on a slow git at the budget, killing it and what it started", async () => {
    const root = repository();
    git(root, "checkout", "-q", "-b", "fix/timeouts");
    const fake = slowFakeGit();

    const started = Date.now();
    const signals = await gatherSessionSignals({ projectRoot: root, timeoutMs: 300, env: { ...process.env, PATH: `${fake.path}${delimiter}${process.env.PATH ?? ""}` } });
    const elapsed = Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(signals).toEqual(GAVE_UP_AT_300_MS);
    expect(elapsed).toBeLessThan(4000); // not the 5 s of the sleep; the benchmark measures the real time
    const started4 = await fake.started(4);
    expect(started4).toHaveLength(4); // two shells, two sleeps
    expect(started4.filter((pid) => isRunning(pid))).toEqual([]);
  });

  it.skipIf(process.platform === "win32")("stops git and what it started when the signals are cancelled, without waiting for its budget", async () => {
    const root = repository();
    git(root, "checkout", "-q", "-b", "fix/timeouts");
    const fake = slowFakeGit();

    const pending = startSessionSignals({ projectRoot: root, timeoutMs: 60_000, env: { ...process.env, PATH: `${fake.path}${delimiter}${process.env.PATH ?? ""}` }, spawn });
    // Both shells have started their sleep.
    await fake.started(4);
    pending.cancel();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = await fake.started(4);
    expect(started).toHaveLength(4); // two shells, two sleeps
    expect(started.filter((pid) => isRunning(pid))).toEqual([]);
  });

  it.skipIf(process.platform === "win32")("starts no git when cancelled before child_process has loaded", async () => {
    const root = repository();
    const bin = makeTempDir();
    const calls = join(bin, "calls");
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$2" >> "${calls}"\n`);
    chmodSync(join(bin, "git"), 0o755);

    // Without spawn, child_process is loaded first: git is not started within the call.
    startSessionSignals({ projectRoot: root, env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` } }).cancel();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(calls)).toBe(false);
  });

  it("still reads the branch from the files when git is not on PATH", async () => {
    const root = repository();
    git(root, "checkout", "-q", "-b", "fix/timeouts");

    expect(await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS, env: { PATH: makeTempDir() } })).toEqual({
      ...NO_SIGNALS,
      project: "semantic-memory",
      branch: "fix/timeouts",
      skipped: ["git is not on PATH; changed files and commit subjects skipped"],
    });
  });

  it.skipIf(process.platform === "win32")("reports a git that fails with the first line of its error", async () => {
    const root = repository();
    const bin = makeTempDir();
    writeFileSync(join(bin, "git"), "#!/bin/sh\necho \"fatal: detected dubious ownership in repository\" >&2\necho \"more\" >&2\nexit 128\n");
    chmodSync(join(bin, "git"), 0o755);

    expect(await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS, env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` } })).toEqual({
      ...NO_SIGNALS,
      project: "semantic-memory",
      branch: "main",
      skipped: [
        "git status failed (fatal: detected dubious ownership in repository); changed files skipped",
        "git log failed (fatal: detected dubious ownership in repository); commit subjects skipped",
      ],
    });
  });

  it.skipIf(process.platform === "win32")("with a cache folder, runs git log once per pair of commits and git status every time", async () => {
    await logOncePerCommits((options) => gatherSessionSignals(options));
  });

  it("ignores a GIT_DIR inherited from the environment", async () => {
    const root = repository();
    write(root, { "a.py": "changed\n" });
    const other = repository();

    const signals = await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS, env: { ...process.env, GIT_DIR: join(other, ".git"), GIT_WORK_TREE: other } });
    expect(signals.changedFiles).toEqual(["a.py"]);
  });
});

describe("startSessionSignals", () => {
  it("starts git at once and counts git's budget from the wait: time spent before it runs nothing out", async () => {
    const root = repository();
    write(root, { "a.py": "changed\n" });
    const pending = startSessionSignals({ projectRoot: root, timeoutMs: 100, spawn });
    // Busy for longer than git's budget (as a session start reading a large index is), git meanwhile done.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
    expect(await pending.signals()).toEqual({ ...NO_SIGNALS, project: "semantic-memory", branch: "main", changedFiles: ["a.py"], commitSubjects: ["Initial layout"] });
  });
});

describe("gatherSessionSignalsNow", () => {
  it("gives what gatherSessionSignals gives, git run to its answer within the call", async () => {
    const root = branchMidWork();
    expect([gatherSessionSignalsNow({ projectRoot: root, timeoutMs: TIMEOUT_MS, spawnSync }), await gatherSessionSignals({ projectRoot: root, timeoutMs: TIMEOUT_MS })]).toEqual([BRANCH_MID_WORK, BRANCH_MID_WORK]);
  });

  it.skipIf(process.platform === "win32")("with a cache folder, runs git log once per pair of commits and git status every time, as the asynchronous one", async () => {
    await logOncePerCommits((options) => gatherSessionSignalsNow({ ...options, spawnSync }));
  });

  it.skipIf(process.platform === "win32")("gives up on a slow git at the budget, killing it and not waiting for what it started", async () => {
    const root = repository();
    git(root, "checkout", "-q", "-b", "fix/timeouts");
    const fake = slowFakeGit();

    const started = Date.now();
    const signals = gatherSessionSignalsNow({ projectRoot: root, timeoutMs: 300, env: { ...process.env, PATH: `${fake.path}${delimiter}${process.env.PATH ?? ""}` }, spawnSync });
    const elapsed = Date.now() - started;

    // git status took the whole budget: none was left for git log, skipped as one that timed out.
    expect(signals).toEqual(GAVE_UP_AT_300_MS);
    // Not the 5 s of the sleep that holds git's pipes open; the benchmark measures the real time.
    expect(elapsed).toBeLessThan(4000);
    // The shell in git's place was killed (its sleep, in no group of git's own, ends by itself).
    const [shell] = await fake.started(2);
    expect(isRunning(shell!)).toBe(false);
  });

  it("still reads the branch from the files when git is not on PATH, and says when git fails", () => {
    const root = repository();
    git(root, "checkout", "-q", "-b", "fix/timeouts");
    const bin = makeTempDir();
    writeFileSync(join(bin, "git"), "#!/bin/sh\necho \"fatal: detected dubious ownership in repository\" >&2\necho \"more\" >&2\nexit 128\n");
    chmodSync(join(bin, "git"), 0o755);

    expect([
      gatherSessionSignalsNow({ projectRoot: root, timeoutMs: TIMEOUT_MS, env: { PATH: makeTempDir() }, spawnSync }).skipped,
      ...(process.platform === "win32" ? [] : [gatherSessionSignalsNow({ projectRoot: root, timeoutMs: TIMEOUT_MS, env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` }, spawnSync }).skipped]),
    ]).toEqual([
      ["git is not on PATH; changed files and commit subjects skipped"],
      ...(process.platform === "win32"
        ? []
        : [["git status failed (fatal: detected dubious ownership in repository); changed files skipped", "git log failed (fatal: detected dubious ownership in repository); commit subjects and the branch's committed files skipped"]]),
    ]);
  });
});
