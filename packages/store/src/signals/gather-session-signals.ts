import { relative, resolve, sep } from "node:path";
import { commitSubjectTopic } from "@iflow-memory/ranker";
import { projectName } from "../write-tracking.js";
import { findActiveFeature, type ActiveFeature } from "./find-active-feature.js";
import { GIT_LOG_FORMAT, parseGitLog } from "./parse-git-log.js";
import { parseGitStatus } from "./parse-git-status.js";
import { readGitState, type GitState } from "./read-git-state.js";
import { readProjectStack } from "./read-project-stack.js";
import { gitLogKey, readCachedGitLog, writeCachedGitLog } from "./git-log-cache.js";
import { gitEnvironment, runGitNow, startGit, type GitRun, type StartedGit } from "./run-git.js";

/** What a session is about, gathered at its start to rank the knowledge bank's entries. */
export interface SessionSignals {
  /** The project's name: package.json / pyproject / Cargo.toml (/ go.mod) name when present, else the root folder's name. */
  project: string;
  /** The checked-out branch; `null` without git or on a detached HEAD. */
  branch: string | null;
  /**
   * Changed files, relative to the repository's top folder (which may be above the project
   * root), deduplicated: staged, unstaged and untracked (an untracked folder as `folder/`),
   * then those changed by the branch's commits since it left the default branch, newest first.
   * At most `MAX_CHANGED_FILES`.
   */
  changedFiles: string[];
  /**
   * Subjects of the branch's own commits since the default branch (newest first, merges left
   * out, at most 20); on the default branch itself, or when there is none, the last 5 commits'.
   * Subjects that say nothing of the work (merges, reverts, "wip", "fix typo", version bumps:
   * `commitSubjectTopic` is null) are left out before counting.
   */
  commitSubjects: string[];
  /** The active iflow feature (see `findActiveFeature`), `null` when none is. */
  feature: ActiveFeature | null;
  /** Stack markers and dependency names (see `readProjectStack`), at most 40. */
  stack: string[];
  /** One line each for what was skipped and why. */
  skipped: string[];
}

export interface GatherSessionSignalsOptions {
  projectRoot: string;
  /**
   * Git's time budget in milliseconds, from the call (with `startSessionSignals`, from the call
   * to `signals()`); git is killed when it runs out. Default 200.
   */
  timeoutMs?: number;
  /** The environment git runs with (its PATH finds git). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * A folder where the branch's `git log` answer is kept between calls (the hooks give
   * `<global store>/.cache`), keyed by the commits it was read from (`gitLogKey`): a session start
   * on the same commits as the last runs `git status` only. Absent: `git log` runs at every call.
   */
  cacheDir?: string;
  /**
   * `child_process.spawn`, when the caller has it: git then starts within the call. Absent:
   * loaded when a repository is found. (Typed loosely so that these types need no Node types.)
   */
  spawn?: (...args: never[]) => unknown;
}

/** Signals being gathered: git started, its answer not yet waited for. */
export interface PendingSessionSignals {
  /** The signals, once git has answered or its budget (from this call) has run out. Call it once. */
  signals(): Promise<SessionSignals>;
  /** Stops git when the signals are not wanted after all (`signals` is then never called). */
  cancel(): void;
}

export const DEFAULT_SIGNALS_TIMEOUT_MS = 200;
export const MAX_CHANGED_FILES = 200;
export const MAX_BRANCH_SUBJECTS = 20;
export const DEFAULT_BRANCH_SUBJECTS = 5;
// The branch's commits read for their files; their subjects are cut to MAX_BRANCH_SUBJECTS.
const MAX_BRANCH_COMMITS = 50;
// On the default branch, subjects only (cheap): enough that boilerplate ones left out still leave DEFAULT_BRANCH_SUBJECTS.
const DEFAULT_BRANCH_COMMITS = 20;

/**
 * The session-start signals of a project, cheap and bounded; never throws, never blocks the
 * event loop on git (`gatherSessionSignalsNow` does, for a caller with nothing else to do), never
 * waits for git past `timeoutMs`.
 *
 * - `branch`, the default branch and the repository's top folder are read from the files under
 *   `.git` (worktrees and submodules, whose `.git` is a file `gitdir: …`, included): no spawn.
 * - At most two `git` processes, run at once, both killed (with whatever they started) when the
 *   budget runs out: `git status --porcelain=v1 -z --untracked-files=normal --no-renames
 *   --ignore-submodules=dirty` (stopped after 200 paths) and one `git log -z --name-only` over
 *   `<default>..HEAD` (the branch's last 50 commits, merges left out) — or, on the default branch,
 *   `git log --no-merges -n 20` for its subjects (5 kept once boilerplate ones are left out). With `cacheDir`, the log is run once per pair of commits
 *   (HEAD, the default branch) and read from there after: only `git status` sees what changes
 *   without a commit. Git runs without prompts, optional locks or a pager, in
 *   the repository found on disk (an inherited `GIT_DIR` is ignored). A git that is slow,
 *   missing or failing leaves its signals empty and says so in `skipped`.
 * - `project` and `stack` come from the manifests in the project root (`readProjectStack`), the
 *   feature from `docs/features/` (`findActiveFeature`), both read with size caps.
 *
 * Paths stay relative to the repository's top folder, also when the project root is below it.
 *
 * @example
 * await gatherSessionSignals({ projectRoot: "/work/semantic-memory" });
 * // { project: "semantic-memory", branch: "fix/embedding-call-timeouts",
 * //   changedFiles: ["semantic_memory/retry.py", "tests/test_retry.py"],
 * //   commitSubjects: ["Time out embedding calls after 10 s"], feature: null,
 * //   stack: ["python", "httpx", "tenacity"], skipped: [] }
 */
export async function gatherSessionSignals(options: GatherSessionSignalsOptions): Promise<SessionSignals> {
  return startSessionSignals(options).signals();
}

/**
 * `gatherSessionSignals` in two steps, for a caller with other work to do while git runs: git
 * starts within this call when `spawn` is given, and `signals()` waits for its answer, git's
 * budget counting from then. What a session start does between the two cannot run out git's time.
 *
 * @example
 * const pending = startSessionSignals({ projectRoot, spawn, cacheDir: join(globalStoreDir, ".cache") });
 * const index = readTheIndex();
 * const signals = await pending.signals();
 */
export function startSessionSignals(options: GatherSessionSignalsOptions): PendingSessionSignals {
  const begun = beginSignals(options);
  const { git, timeoutMs } = begun;
  let statusRun: StartedGit | null = null;
  let logRun: StartedGit | null = null;
  let started: Promise<void> | undefined;
  let cancelled = false;
  if (git !== null) {
    // Both git calls start now, before the manifests are read, so that git works while we read.
    const launch = (spawn: typeof import("node:child_process").spawn): void => {
      if (timeoutMs === 0 || cancelled) return;
      const run = { cwd: git.repositoryRoot, env: begun.env, spawn };
      statusRun = startGit(STATUS_ARGS, { ...run, maxRecords: MAX_CHANGED_FILES });
      if (begun.logArgs !== null && begun.cachedLog === null) logRun = startGit(begun.logArgs, run);
    };
    // Loaded here, not at the top: without a repository nothing is spawned.
    if (options.spawn !== undefined) launch(options.spawn as typeof import("node:child_process").spawn);
    else started = import("node:child_process").then(({ spawn }) => launch(spawn));
  }
  const stack = readStack(begun);

  return {
    cancel: () => {
      // Git may not have started yet (child_process still loading): then it never does.
      cancelled = true;
      statusRun?.stop();
      logRun?.stop();
    },
    signals: async () => {
      const deadline = Date.now() + timeoutMs;
      await started;
      const answer = async (run: StartedGit | null): Promise<GitRun | null> =>
        run === null ? (git === null ? null : { ok: false, reason: "timeout", message: "no time left" }) : run.result(deadline);
      const [status, log] = await Promise.all([answer(statusRun), begun.cachedLog !== null ? cachedLogRun(begun.cachedLog) : begun.logArgs !== null ? answer(logRun) : null]);
      return endSignals(begun, stack, status, log, options.cacheDir);
    },
  };
}

/**
 * `gatherSessionSignals` for a caller that would only wait for git: git is run to its answer in
 * this call (`runGitNow`, `spawnSync` given), which blocks for at most `timeoutMs` (default 200)
 * — `git status`, then `git log` when its answer is not cached, in the time left. A session start
 * that has nothing to read while git runs gets the signals some milliseconds sooner than from
 * `startSessionSignals` and a wait (BENCHMARKS.md, #22). The same signals and skips; at the budget
 * git is killed, but not what a wrapper script in its place started (`runGitNow`).
 *
 * @example
 * gatherSessionSignalsNow({ projectRoot, spawnSync, cacheDir: join(globalStoreDir, ".cache") });
 * // { project: "semantic-memory", branch: "fix/embedding-call-timeouts", changedFiles: [...], ... }
 */
export function gatherSessionSignalsNow(options: Omit<GatherSessionSignalsOptions, "spawn"> & { spawnSync: (...args: never[]) => unknown }): SessionSignals {
  const begun = beginSignals(options);
  const { git, timeoutMs } = begun;
  let status: GitRun | null = null;
  let log: GitRun | null = begun.cachedLog !== null ? cachedLogRun(begun.cachedLog) : null;
  if (git !== null) {
    const deadline = Date.now() + timeoutMs;
    const run = { cwd: git.repositoryRoot, env: begun.env, spawnSync: options.spawnSync as typeof import("node:child_process").spawnSync };
    status = runGitNow(STATUS_ARGS, { ...run, timeoutMs: deadline - Date.now(), maxRecords: MAX_CHANGED_FILES });
    if (begun.logArgs !== null && log === null) log = runGitNow(begun.logArgs, { ...run, timeoutMs: deadline - Date.now() });
  }
  return endSignals(begun, readStack(begun), status, log, options.cacheDir);
}

const STATUS_ARGS = ["--no-pager", "status", "--porcelain=v1", "-z", "--untracked-files=normal", "--no-renames", "--ignore-submodules=dirty"];

// What both ways of gathering read before git runs: the repository's state from its files, the
// arguments of the log the signals ask for, and its answer where it is cached.
interface BegunSignals {
  projectRoot: string;
  timeoutMs: number;
  skipped: string[];
  git: GitState | null;
  branchRange: boolean;
  env: Record<string, string | undefined>;
  logArgs: string[] | null;
  logKey: string | null;
  cachedLog: string | null;
}

function beginSignals(options: Omit<GatherSessionSignalsOptions, "spawn">): BegunSignals {
  const timeoutMs = options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs) && options.timeoutMs >= 0 ? options.timeoutMs : DEFAULT_SIGNALS_TIMEOUT_MS;
  const projectRoot = resolve(options.projectRoot);
  const skipped: string[] = [];

  let git: GitState | null = null;
  try {
    git = readGitState(projectRoot);
    if (git === null) skipped.push("not a git repository");
  } catch (error) {
    skipped.push(`.git cannot be read (${(error as Error).message}); git signals skipped`);
  }

  // The branch's log is the same as long as its commits are: from the cache when it has it.
  const branchRange = git !== null && git.defaultRef !== null && !git.onDefaultBranch;
  const env = gitEnvironment(options.env ?? process.env);
  let logArgs: string[] | null = null;
  let logKey: string | null = null;
  let cachedLog: string | null = null;
  if (git !== null) {
    for (const note of git.notes) skipped.push(note);
    if (git.hasCommits) {
      logArgs = [
        ...["--no-pager", "log", "--no-color", "--no-show-signature", "-z", GIT_LOG_FORMAT],
        ...(branchRange
          ? ["--no-merges", "--no-renames", "--name-only", "-n", String(MAX_BRANCH_COMMITS), `${git.defaultRef}..HEAD`, "--"]
          : ["--no-merges", "-n", String(DEFAULT_BRANCH_COMMITS), "HEAD", "--"]),
      ];
    }
    if (logArgs !== null && options.cacheDir !== undefined) {
      logKey = gitLogKey(git, logArgs, env);
      cachedLog = logKey === null ? null : readCachedGitLog(options.cacheDir, git.repositoryRoot, logKey);
    }
  }
  return { projectRoot, timeoutMs, skipped, git, branchRange, env, logArgs, logKey, cachedLog };
}

function cachedLogRun(stdout: string): GitRun {
  return { ok: true, stdout, truncated: false };
}

function readStack(begun: BegunSignals): { project: string; stack: string[] } {
  let project = projectName(begun.projectRoot);
  let stack: string[] = [];
  try {
    const found = readProjectStack(begun.projectRoot);
    project = found.name ?? project;
    stack = found.stack;
    for (const note of found.skipped) begun.skipped.push(note);
  } catch (error) {
    begun.skipped.push(`the project's manifests cannot be read (${(error as Error).message}); stack skipped`);
  }
  return { project, stack };
}

// git's answers kept (a whole log, for the next call on the same commits) and made into signals.
function endSignals(begun: BegunSignals, found: { project: string; stack: string[] }, status: GitRun | null, log: GitRun | null, cacheDir: string | undefined): SessionSignals {
  const { git, logKey, cachedLog } = begun;
  if (log?.ok === true && !log.truncated && cachedLog === null && logKey !== null && cacheDir !== undefined && git !== null) {
    writeCachedGitLog(cacheDir, git.repositoryRoot, logKey, log.stdout);
  }
  return settleSignals({ ...begun, ...found, status, log });
}

function settleSignals(gathered: {
  projectRoot: string;
  git: GitState | null;
  branchRange: boolean;
  status: GitRun | null;
  log: GitRun | null;
  project: string;
  stack: string[];
  skipped: string[];
  timeoutMs: number;
}): SessionSignals {
  const { projectRoot, git, branchRange, status, log, project, stack, skipped, timeoutMs } = gathered;
  const changed = new Set<string>();
  let commitSubjects: string[] = [];
  // A git not on PATH is one line, not one per call.
  const missing = (run: GitRun | null): boolean => run?.ok === false && run.reason === "missing";
  if (missing(status) || missing(log)) skipped.push("git is not on PATH; changed files and commit subjects skipped");
  if (status?.ok === true) for (const file of parseGitStatus(completeRecords(status))) changed.add(file);
  else if (status?.ok === false && !missing(status)) skipped.push(`${describeFailure("git status", status, timeoutMs)}; changed files skipped`);
  if (log?.ok === true) {
    const commits = parseGitLog(completeRecords(log));
    // Merges, reverts, "wip", version bumps: they say nothing of the work, and would take the place of a subject that does.
    commitSubjects = commits
      .map((commit) => commit.subject)
      .filter((subject) => commitSubjectTopic(subject) !== null)
      .slice(0, branchRange ? MAX_BRANCH_SUBJECTS : DEFAULT_BRANCH_SUBJECTS);
    if (branchRange) for (const file of commits.flatMap((commit) => commit.files)) changed.add(file);
  } else if (log?.ok === false && !missing(log)) {
    skipped.push(`${describeFailure("git log", log, timeoutMs)}; ${branchRange ? "commit subjects and the branch's committed files" : "commit subjects"} skipped`);
  }
  const changedFiles = [...changed].slice(0, MAX_CHANGED_FILES);

  let feature: ActiveFeature | null = null;
  try {
    const projectPrefix = git === null ? "" : relative(git.repositoryRoot, projectRoot).split(sep).join("/");
    feature = findActiveFeature({ projectRoot, branch: git?.branch ?? null, changedFiles, projectPrefix: projectPrefix === "" ? "" : `${projectPrefix}/` });
  } catch (error) {
    skipped.push(`docs/features cannot be read (${(error as Error).message}); feature skipped`);
  }

  return { project, branch: git?.branch ?? null, changedFiles, commitSubjects, feature, stack, skipped };
}

// Output cut short (git stopped early) ends inside a record: keep the records before it.
function completeRecords(run: Extract<GitRun, { ok: true }>): string {
  return run.truncated ? run.stdout.slice(0, run.stdout.lastIndexOf("\0") + 1) : run.stdout;
}

function describeFailure(command: string, run: Extract<GitRun, { ok: false }>, timeoutMs: number): string {
  if (run.reason === "timeout") return `${command} did not answer within ${timeoutMs} ms`;
  return `${command} failed (${run.message})`;
}
