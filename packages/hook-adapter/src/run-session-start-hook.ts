import {
  createTrackingRecord,
  findProjectRoot,
  formatWarning,
  injectionCachePath,
  injectionFingerprint,
  projectName,
  readCachedInjection,
  resolveGlobalStoreDir,
  trackingPath,
  writeCachedInjection,
  writeTracking,
  type SessionInjection,
  type StoreWarning,
} from "@iflow-memory/store";
import { readStdin, type HookInput } from "./read-stdin.js";

/** Works out a session's injection from the files: `prepareSessionInjection` of the store. */
export type PrepareInjection = (options: { projectRoot: string; globalStoreDir: string }) => Promise<SessionInjection>;

export interface HookIO {
  /**
   * The store's `prepareSessionInjection`, or a function that loads it: the hook's own bundle
   * loads it only when the cached injection is stale, so that most session starts never load
   * the parser, the ranker or the YAML library.
   */
  prepare: PrepareInjection;
  /** Also invalidates the cache, e.g. the stamp of the running bundle (a new build, a new cache). */
  cacheSalt?: string;
  stdin: HookInput;
  stdout: { write(text: string, callback?: () => void): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  now?: () => Date;
}

/** How long the hook may take before it gives up and lets the session start without memory. */
export const DEFAULT_DEADLINE_MS = 2000;
const STDIN_TIMEOUT_MS = 1000;

/** The fields of Claude Code's SessionStart stdin that the hook uses. */
interface SessionStartInput {
  hook_event_name?: unknown;
  source?: unknown;
  cwd?: unknown;
}

/**
 * Claude Code's SessionStart hook: reads the hook's stdin JSON, injects the project's memory
 * and prints `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}}`.
 * Fail-open: whatever goes wrong, it resolves 0 within its deadline (default 2 s, or
 * `IFLOW_MEMORY_HOOK_DEADLINE_MS`), prints valid JSON or nothing, and says what went wrong on
 * stderr. The injection is cached in the global store (`.cache/`) until one of the files it
 * comes from changes; `IFLOW_MEMORY_HOOK_CACHE=0` turns the cache off.
 *
 * @example
 * const code = await runSessionStartHook({ prepare: prepareSessionInjection, stdin: process.stdin,
 *   stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
 */
export async function runSessionStartHook(io: HookIO): Promise<0> {
  const deadlineMs = parseDeadline(io.env.IFLOW_MEMORY_HOOK_DEADLINE_MS);
  const startedAt = Date.now();
  const problems: string[] = [];
  // The deadline can only end a wait (code that runs without waiting cannot be cut short), so
  // its timer is set at the first wait: most session starts find stdin written and closed and
  // their injection cached, and never wait at all.
  let timer: NodeJS.Timeout | undefined;
  let giveUp: (value: null) => void = () => undefined;
  const deadline = new Promise<null>((resolve) => (giveUp = resolve));
  const beforeWaiting = (): void => {
    if (timer !== undefined) return;
    timer = setTimeout(() => giveUp(null), Math.max(0, startedAt + deadlineMs - Date.now()));
    timer.unref();
  };

  let output: string | null = null;
  try {
    output = await Promise.race([buildOutput(io, problems, beforeWaiting), deadline]);
    if (output === null) {
      problems.push(`gave up after ${deadlineMs} ms; the session starts without memory`);
    }
  } catch (error) {
    problems.push(`failed (${(error as Error).message}); the session starts without memory`);
    output = null;
  } finally {
    clearTimeout(timer);
  }

  for (const problem of problems) io.stderr.write(`iflow-memory: ${problem}\n`);
  if (output !== null && output !== "") {
    const text = output;
    await new Promise<void>((resolve) => io.stdout.write(text, () => resolve()));
  }
  return 0;
}

async function buildOutput(io: HookIO, problems: string[], beforeWaiting: () => void): Promise<string> {
  const stdin = await readStdin(io.stdin, Math.min(STDIN_TIMEOUT_MS, deadlineOf(io)), beforeWaiting);
  if (stdin.timedOut) problems.push(`stdin did not close within ${STDIN_TIMEOUT_MS} ms; reading what arrived`);
  if (stdin.failure !== undefined) problems.push(`stdin could not be read (${stdin.failure}); reading what arrived`);
  const input = parseInput(stdin.text, problems);

  if (typeof input.hook_event_name === "string" && input.hook_event_name !== "SessionStart") {
    problems.push(`called for ${input.hook_event_name}, not SessionStart; nothing injected`);
    return "";
  }
  const source = typeof input.source === "string" && input.source !== "" ? input.source : "startup";
  const start =
    typeof input.cwd === "string" && input.cwd !== ""
      ? input.cwd
      : io.env.CLAUDE_PROJECT_DIR !== undefined && io.env.CLAUDE_PROJECT_DIR !== ""
        ? io.env.CLAUDE_PROJECT_DIR
        : io.cwd;
  const projectRoot = await findProjectRoot(start);
  const globalStoreDir = resolveGlobalStoreDir({ env: io.env });
  const injection = await cachedInjection(io, projectRoot, globalStoreDir, beforeWaiting);

  report(injection.configWarnings, problems);
  const { config, plan } = injection;
  if (!config.injectionEnabled || !config.injectionEvents.includes(source)) return "";
  report(injection.warnings, problems);
  if (plan.block === "") return "";

  const record = createTrackingRecord({ plan, project: projectName(projectRoot), now: (io.now ?? (() => new Date()))(), event: source });
  try {
    await writeTracking(globalStoreDir, record);
  } catch (error) {
    problems.push(`${trackingPath(globalStoreDir)}: tracking not written (${(error as Error).message}); the injection itself is unaffected`);
  }
  return `${JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: plan.block },
  })}\n`;
}

declare const __IFLOW_MEMORY_VERSION__: string;
const VERSION = typeof __IFLOW_MEMORY_VERSION__ === "string" ? __IFLOW_MEMORY_VERSION__ : "0.0.0-dev";

async function cachedInjection(io: HookIO, projectRoot: string, globalStoreDir: string, beforeWaiting: () => void): Promise<SessionInjection> {
  if (io.env.IFLOW_MEMORY_HOOK_CACHE === "0") {
    beforeWaiting();
    return io.prepare({ projectRoot, globalStoreDir });
  }
  const path = injectionCachePath(globalStoreDir, projectRoot);
  const now = (io.now ?? (() => new Date()))().getTime();
  const fingerprint = injectionFingerprint({ projectRoot, globalStoreDir, salt: `${VERSION}\t${io.cacheSalt ?? ""}`, now });
  const cached = readCachedInjection(path, fingerprint.value);
  if (cached !== null) return cached;
  beforeWaiting();
  const injection = await io.prepare({ projectRoot, globalStoreDir });
  // A cache that cannot be written (no global store, a read-only home) only costs speed.
  if (fingerprint.settled) await writeCachedInjection(path, fingerprint.value, injection).catch(() => undefined);
  return injection;
}

function parseInput(text: string, problems: string[]): SessionStartInput {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as SessionStartInput;
    problems.push("stdin is JSON but not an object; using defaults (source startup, the current directory)");
  } catch {
    problems.push("stdin is not valid JSON; using defaults (source startup, the current directory)");
  }
  return {};
}

function report(warnings: StoreWarning[], problems: string[]): void {
  for (const warning of warnings) problems.push(`warning: ${formatWarning(warning)}`);
}

function deadlineOf(io: HookIO): number {
  return parseDeadline(io.env.IFLOW_MEMORY_HOOK_DEADLINE_MS);
}

function parseDeadline(value: string | undefined): number {
  const number = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(number) && number > 0 ? number : DEFAULT_DEADLINE_MS;
}
