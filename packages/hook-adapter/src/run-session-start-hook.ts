import { dirname } from "node:path";
import {
  claimCacheRefresh,
  createTrackingRecord,
  findProjectRoot,
  formatWarning,
  injectionCachePath,
  injectionFingerprint,
  projectName,
  readCachedInjection,
  releaseCacheRefresh,
  resolveGlobalStoreDir,
  SETTLE_MS,
  trackingPath,
  writeCachedInjection,
  writeTracking,
  type SessionInjection,
  type StoreWarning,
} from "@iflow-memory/store";
import { readStdin, type HookInput } from "./read-stdin.js";

/** Where a session's injection comes from: the project and the global store. */
export interface InjectionSources {
  projectRoot: string;
  globalStoreDir: string;
}

/** Works out a session's injection from the files: `prepareSessionInjection` of the store. */
export type PrepareInjection = (options: InjectionSources) => Promise<SessionInjection>;

export interface HookIO {
  /**
   * The store's `prepareSessionInjection`, or a function that loads it: the hook's own bundle
   * loads it only when the cached injection is stale, so that most session starts never load
   * the parser, the ranker or the YAML library.
   */
  prepare: PrepareInjection;
  /**
   * Works the injection out away from the hook's own thread (the hook's bundle: a worker
   * thread), for files over `IN_PROCESS_MAX_BYTES` in all: parsing them in the hook's thread
   * could outlast the deadline with nothing to stop it, while a wait on a worker ends at the
   * deadline. Absent: `prepare`.
   */
  prepareAside?: PrepareInjection;
  /**
   * Starts a process that outlives the hook to work the injection out and cache it
   * (`refreshCachedInjection`), for when the deadline ended a wait on `prepareAside`: the next
   * session start then finds the injection cached.
   */
  refreshInBackground?: (options: InjectionSources) => void;
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

/**
 * Memory files larger than this in all are parsed away from the hook's thread (`prepareAside`):
 * some 12,000 entries, a quarter of a second of parsing on a slow machine. Below it, the cost
 * of starting a worker (some 40 ms) would be most of the work.
 */
export const IN_PROCESS_MAX_BYTES = 4 * 1024 * 1024;

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
  // its timer is set at the first wait: reading a pipe, or working an injection out.
  let timer: NodeJS.Timeout | undefined;
  let giveUp: (value: null) => void = () => undefined;
  const deadline = new Promise<null>((resolve) => (giveUp = resolve));
  const waiting: Waiting = {
    begin: () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => giveUp(null), Math.max(0, startedAt + deadlineMs - Date.now()));
      timer.unref();
    },
    onGiveUp: undefined,
  };

  let output: string | null = null;
  try {
    output = await Promise.race([buildOutput(io, problems, waiting), deadline]);
    if (output === null) {
      const later = waiting.onGiveUp?.() ?? "";
      problems.push(`gave up after ${deadlineMs} ms; the session starts without memory${later}`);
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

/** What the hook does about waiting: the deadline's timer starts at the first wait. */
interface Waiting {
  begin(): void;
  /** Set while a wait that the deadline may end can still be finished elsewhere; returns what to tell the user. */
  onGiveUp: (() => string) | undefined;
}

async function buildOutput(io: HookIO, problems: string[], waiting: Waiting): Promise<string> {
  const stdin = await readStdin(io.stdin, Math.min(STDIN_TIMEOUT_MS, deadlineOf(io)), waiting.begin);
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
  const injection = await cachedInjection(io, { projectRoot, globalStoreDir }, waiting);

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

async function cachedInjection(io: HookIO, sources: InjectionSources, waiting: Waiting): Promise<SessionInjection> {
  const cacheOn = io.env.IFLOW_MEMORY_HOOK_CACHE !== "0";
  const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
  const now = (io.now ?? (() => new Date()))().getTime();
  const fingerprint = injectionFingerprint({ ...sources, salt: cacheSalt(io.cacheSalt), now });
  const cached = cacheOn ? readCachedInjection(path, fingerprint.value) : null;
  if (cached !== null) return cached;

  waiting.begin();
  const aside = io.prepareAside !== undefined && fingerprint.bytes > IN_PROCESS_MAX_BYTES;
  const { refreshInBackground } = io;
  if (aside && cacheOn && refreshInBackground !== undefined) {
    waiting.onGiveUp = () => startRefresh(refreshInBackground, path, sources, fingerprint.bytes);
  }
  const injection = await (aside ? io.prepareAside! : io.prepare)(sources);
  waiting.onGiveUp = undefined;
  // A cache that cannot be written (no global store, a read-only home) only costs speed.
  if (cacheOn && fingerprint.settled) await writeCachedInjection(path, fingerprint.value, injection).catch(() => undefined);
  return injection;
}

/** Starts the background refresh unless one is running already; says what the next session gets. */
function startRefresh(refreshInBackground: (options: InjectionSources) => void, path: string, sources: InjectionSources, bytes: number): string {
  const size = `${(bytes / 1_048_576).toFixed(1)} MB`;
  const claim = claimCacheRefresh(path);
  if (claim === "taken") return `; the memory files (${size}) are being read for the next session by an earlier one`;
  if (claim === "impossible") return `; the memory files (${size}) take longer than that to read, and ${dirname(path)} cannot cache them`;
  try {
    refreshInBackground(sources);
  } catch {
    releaseCacheRefresh(path);
    return `; the memory files (${size}) take longer than that to read`;
  }
  return `; the memory files (${size}) are being read in the background for the next session`;
}

/**
 * Works a session's injection out and caches it, apart from any session start: what the
 * process started by `HookIO.refreshInBackground` runs. Files changed within the last
 * `SETTLE_MS` are given that long to settle first (a result read from them is not cached), and
 * the claim that `claimCacheRefresh` made for it is released at the end, whatever happens.
 *
 * @example
 * await refreshCachedInjection({ projectRoot, globalStoreDir, prepare: prepareSessionInjection });
 */
export async function refreshCachedInjection(
  options: InjectionSources & { prepare: PrepareInjection; cacheSalt?: string; now?: () => number; sleep?: (ms: number) => Promise<void> },
): Promise<void> {
  const { prepare, now = Date.now, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } = options;
  const sources = { projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir };
  const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
  const stamp = () => injectionFingerprint({ ...sources, salt: cacheSalt(options.cacheSalt), now: now() });
  try {
    let fingerprint = stamp();
    if (!fingerprint.settled) {
      await sleep(SETTLE_MS);
      fingerprint = stamp();
    }
    const injection = await prepare(sources);
    if (fingerprint.settled) await writeCachedInjection(path, fingerprint.value, injection);
  } finally {
    releaseCacheRefresh(path);
  }
}

function cacheSalt(extra: string | undefined): string {
  return `${VERSION}\t${extra ?? ""}`;
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
