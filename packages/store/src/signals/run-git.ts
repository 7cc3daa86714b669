/** What one `git` call gave: its output, or why there is none. */
export type GitRun =
  | { ok: true; stdout: string; truncated: boolean }
  | { ok: false; reason: "timeout" | "missing" | "failed"; message: string };

export interface RunGitOptions {
  /** The repository's top folder. */
  cwd: string;
  /** The whole environment of the child (see `gitEnvironment`). */
  env: Record<string, string | undefined>;
  /** `Date.now()` value at which git is killed and the call answers `timeout`. */
  deadline: number;
  /** Output past this many bytes is not read: git is stopped and the output so far returned. */
  maxOutputBytes?: number;
  /** With `-z` output: stop git once this many NUL-terminated records have arrived. */
  maxRecords?: number;
  /** `child_process.spawn`, when the caller has it loaded: git then starts before `runGit` returns. */
  spawn?: typeof import("node:child_process").spawn;
}

const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * The environment a read-only git call runs with: never prompts, never takes the index lock to
 * refresh it, never pages, and the repository is the one found on disk (`cwd`), not one named by
 * an inherited `GIT_DIR` (a hook run from inside a git hook would otherwise read another one).
 *
 * @example
 * gitEnvironment({ PATH: "/usr/bin", GIT_DIR: "/x/.git" });
 * // { PATH: "/usr/bin", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", PAGER: "cat" }
 */
export function gitEnvironment(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    if (["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_NAMESPACE"].includes(key)) continue;
    result[key] = value;
  }
  return { ...result, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", PAGER: "cat" };
}

/**
 * Runs `git` asynchronously, never past `deadline`: at the deadline git and everything it started
 * (its whole process group) are killed with SIGKILL and the call answers `timeout` at once. Never
 * throws; a git that is not on PATH answers `missing`, one that exits non-zero `failed` with the
 * first line of its stderr.
 *
 * @example
 * await runGit(["status", "--porcelain=v1", "-z"], { cwd: "/work/webshop", env: gitEnvironment(process.env), deadline: Date.now() + 200 });
 * // { ok: true, stdout: " M src/cart.ts\0", truncated: false }
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<GitRun> {
  if (Date.now() >= options.deadline) return { ok: false, reason: "timeout", message: "no time left" };
  // Loaded here, not at the top: most users of this package never spawn anything.
  const spawn = options.spawn ?? (await import("node:child_process")).spawn;
  return startGit(args, { ...options, spawn }).result(options.deadline);
}

/** A `git` process started by `startGit`. */
export interface StartedGit {
  /**
   * What git answered, waited for until `deadline` (a `Date.now()` value) at most: then git and
   * everything it started are killed, and the answer is `timeout`. The time before this call
   * does not count, so that a caller busy with other work while git runs cannot run out git's
   * time: its answer may be there already.
   */
  result(deadline: number): Promise<GitRun>;
  /** Kills git and everything it started, when its answer is no longer wanted; it then answers `failed`. */
  stop(): void;
}

/**
 * Starts `git` at once and collects its answer, for a caller that has work to do while it runs
 * (`runGit` is start and wait in one). Never throws; see `runGit` for the answers.
 *
 * @example
 * const status = startGit(["status", "--porcelain=v1", "-z"], { cwd, env: gitEnvironment(process.env), spawn });
 * readTheIndex();
 * await status.result(Date.now() + 200);
 */
export function startGit(args: readonly string[], options: Omit<RunGitOptions, "deadline" | "spawn"> & { spawn: NonNullable<RunGitOptions["spawn"]> }): StartedGit {
  const { spawn } = options;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY;
  const ownGroup = process.platform !== "win32";

  let outcome: GitRun | null = null;
  let notify: ((result: GitRun) => void) | null = null;
  const finish = (result: GitRun): void => {
    if (outcome !== null) return;
    outcome = result;
    notify?.(result);
  };

  let child: ReturnType<typeof spawn>;
  try {
    child = spawn("git", args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that a kill reaches what it started (a wrapper script's children).
      detached: ownGroup,
      windowsHide: true,
    });
  } catch (error) {
    finish({ ok: false, reason: "failed", message: (error as Error).message });
    return { result: () => Promise.resolve(outcome!), stop: () => undefined };
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let records = 0;
  let stderr = "";
  const stop = (): void => {
    try {
      if (ownGroup && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {
      // already gone
    }
    // A grandchild that escaped the kill may hold the pipes open; they must not keep us waiting.
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  const output = (): string => Buffer.concat(chunks, size).toString("utf8");

  child.stdout?.on("data", (chunk: Buffer) => {
    if (outcome !== null) return;
    chunks.push(chunk);
    size += chunk.length;
    if (maxRecords !== Number.POSITIVE_INFINITY) {
      for (let index = chunk.indexOf(0); index !== -1; index = chunk.indexOf(0, index + 1)) records += 1;
    }
    if (size >= maxOutputBytes || records >= maxRecords) {
      stop();
      finish({ ok: true, stdout: output(), truncated: true });
    }
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  child.on("error", (error: NodeJS.ErrnoException) => {
    stop();
    finish(error.code === "ENOENT" ? { ok: false, reason: "missing", message: "git is not on PATH" } : { ok: false, reason: "failed", message: error.message });
  });
  child.on("close", (code, signal) => {
    if (code === 0) {
      finish({ ok: true, stdout: output(), truncated: false });
      return;
    }
    finish(failedRun(stderr, code, signal));
  });

  return {
    stop() {
      if (outcome !== null) return;
      stop();
      finish({ ok: false, reason: "failed", message: "stopped: its answer was not wanted" });
    },
    result(deadline: number): Promise<GitRun> {
      if (outcome !== null) return Promise.resolve(outcome);
      return new Promise<GitRun>((resolve) => {
        const timer = setTimeout(() => {
          stop();
          finish({ ok: false, reason: "timeout", message: "did not answer in time" });
        }, Math.max(0, deadline - Date.now()));
        notify = (result) => {
          clearTimeout(timer);
          resolve(result);
        };
      });
    },
  };
}

/**
 * `runGit` for a caller with nothing to do while git runs: git is run to its answer in this call
 * (`child_process.spawnSync`), which blocks for at most `timeoutMs`. In a process as young as a
 * session start it answers sooner than `startGit` and a wait, which must load and first run the
 * code of a child process's streams and events (BENCHMARKS.md, #22). The same answers as
 * `runGit`, but for two things: at `timeoutMs`, or once output passes `maxOutputBytes`, git is
 * killed, but not what git may have started (a wrapper script's children: spawnSync puts git in no
 * group of its own), which is not waited for and ends at its first write to the closed pipes; with
 * `maxRecords`, the output is cut after that many records, git run to its end (a status long
 * enough to matter is cut by the time or the bytes).
 *
 * @example
 * runGitNow(["status", "--porcelain=v1", "-z"], { cwd: "/work/webshop", env: gitEnvironment(process.env), timeoutMs: 200, spawnSync });
 * // { ok: true, stdout: " M src/cart.ts\0", truncated: false }
 */
export function runGitNow(
  args: readonly string[],
  options: Omit<RunGitOptions, "deadline" | "spawn"> & { timeoutMs: number; spawnSync: typeof import("node:child_process").spawnSync },
): GitRun {
  if (!(options.timeoutMs > 0)) return { ok: false, reason: "timeout", message: "no time left" };
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  let run: ReturnType<typeof import("node:child_process").spawnSync>;
  try {
    run = options.spawnSync("git", args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
      timeout: options.timeoutMs,
      killSignal: "SIGKILL",
      maxBuffer: maxOutputBytes,
    });
  } catch (error) {
    return { ok: false, reason: "failed", message: (error as Error).message };
  }
  const code = (run.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ETIMEDOUT") return { ok: false, reason: "timeout", message: "did not answer in time" };
  if (code === "ENOBUFS") return { ok: true, stdout: String(run.stdout), truncated: true };
  if (run.error !== undefined) return code === "ENOENT" ? { ok: false, reason: "missing", message: "git is not on PATH" } : { ok: false, reason: "failed", message: run.error.message };
  if (run.status !== 0) return failedRun(String(run.stderr), run.status, run.signal);
  const stdout = String(run.stdout);
  const maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY;
  let records = 0;
  for (let index = stdout.indexOf("\0"); index !== -1; index = stdout.indexOf("\0", index + 1)) {
    if (++records === maxRecords) return { ok: true, stdout: stdout.slice(0, index + 1), truncated: index + 1 < stdout.length };
  }
  return { ok: true, stdout, truncated: false };
}

// A git that exited otherwise than with 0: the first line it wrote to stderr, else how it ended.
function failedRun(stderr: string, code: number | null, signal: NodeJS.Signals | null): GitRun {
  const firstLine = stderr.split("\n").find((line) => line.trim() !== "")?.trim();
  return { ok: false, reason: "failed", message: firstLine ?? (signal === null ? `exited with ${code}` : `killed by ${signal}`) };
}
