import { dirname } from "node:path";
import {
  claimCacheRefresh,
  claimSessionEvent,
  configWithoutFile,
  entryFileCache,
  findProjectRoot,
  formatWarning,
  handOverCacheRefresh,
  injectionCachePath,
  injectionFingerprint,
  isJsonObject,
  MEMORY_CACHE_SALT,
  readCachedInjectionOrEarlier,
  readCachedPlan,
  readCachedRanking,
  releaseCacheRefresh,
  resolveGlobalStoreDir,
  SETTLE_MS,
  writeCachedInjection,
  writeCachedPlan,
  type EntryFileCache,
  type KnownConfig,
  type MemoryConfig,
  type RefreshClaim,
  type SessionInjection,
  type SessionPlan,
  type SessionSignals,
  type StoreWarning,
} from "@iflow-memory/store";
import { agentDialect, type AgentName } from "./agent-dialect.js";
import { readStdin, type HookInput } from "./read-stdin.js";

/** Where a session's injection comes from: the project and the global store. */
export interface InjectionSources {
  projectRoot: string;
  globalStoreDir: string;
  /** Where each memory file's entries are kept between reads (absent: every file parsed), so that a start after an edit parses only the file that changed. */
  fileCache?: EntryFileCache;
  /** The project's config as its config file gives it now, when that is known without reading it (`prepareSessionInjection`'s `config`). */
  config?: KnownConfig;
}

/** Works out a session's injection from the files: `prepareSessionInjection` of the store. */
export type PrepareInjection = (options: InjectionSources) => Promise<SessionInjection>;

/** Grows the injection cached before an edit by the learnings appended, or gives null: `extendSessionInjection` of the store. */
export type GrowInjection = (earlier: SessionInjection, sources: InjectionSources) => Promise<SessionInjection | null>;

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
   * Grows the injection cached before an edit by the learnings appended to one memory file
   * (`extendSessionInjection`): the session gets the files as they are now at the cost of the
   * learnings, not of the store, whatever their size. Absent: the files are read again (those over
   * `IN_PROCESS_MAX_BYTES`: the session gets them as they were, while a background process
   * reads them).
   */
  grow?: GrowInjection;
  /**
   * Starts a process that outlives the hook to work the injection out and cache it
   * (`refreshCachedInjection`): after the hook read settled files itself (it keeps nothing of
   * them then), or when the deadline ended a wait on `prepareAside`. The next session start then
   * finds the injection cached. Called through `atExit` when that is given. Returns the process's
   * id, which the refresh's claim then names (`handOverCacheRefresh`), so that the claim holds while
   * that process runs and no longer: a start killed before it started one leaves a claim that the
   * next start takes over.
   */
  refreshInBackground?: (options: InjectionSources) => number | void;
  /**
   * Runs a task as the process exits, after the hook's output (the hook's bundle: the process's
   * `exit` event). A background refresh is started so: started at once, its node, bundles and
   * reads ran beside the rest of the session start, which took some 10 % longer for it on two
   * cores (BENCHMARKS.md). Absent: the task runs at once.
   */
  atExit?: (task: () => void) => void;
  /**
   * What the session is about, for relevance: the store's `gatherSessionSignals` (git, the active
   * feature, the stack). Absent: the store's, with its 200 ms budget for git, started before the
   * index is read so that git works meanwhile, and `git log` kept in the store's cache.
   */
  gatherSignals?: (projectRoot: string) => Promise<SessionSignals>;
  /**
   * `child_process.spawn` (or a function that loads it at its first call): git then starts at
   * once. Absent: loaded when git first runs. (Typed loosely so that these types need no Node types.)
   */
  spawn?: (...args: never[]) => unknown;
  /**
   * `child_process.spawnSync` (or a function that loads it at its first call): where the hook has
   * nothing to do while git runs (a start with a plan of these files to compare its signals with),
   * git is run to its answer at once (`gatherSessionSignalsNow`), some milliseconds sooner than
   * started and waited for. Absent: started and waited for.
   */
  spawnSync?: (...args: never[]) => unknown;
  /**
   * How the block's index tells the agent to fetch an entry in full: "mcp" where the iflow-memory
   * MCP server is registered beside the hook (the plugin; `setup claude` without `--no-mcp`: the
   * hook's command then ends in `--mcp`), else "cli" (`iflow-memory show HASH`).
   */
  fetch?: "mcp" | "cli";
  /**
   * The agent that runs the hook, named by `--agent` in its registered command: which stdin
   * fields it sends and which output shape it reads (`agentDialect`). Absent: Claude Code.
   */
  agent?: AgentName;
  stdin: HookInput;
  stdout: { write(text: string, callback?: () => void): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  now?: () => Date;
  /**
   * When the process started (ms since the epoch, e.g. `Date.now() - process.uptime() * 1000`): the deadline
   * counts from it, so that starting node and loading the bundle are inside it. Absent: from
   * when the hook's code began.
   */
  startedAt?: number;
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

/** The fields of a hook's stdin JSON, in Claude Code's names (an agent's dialect maps its own to them); each hook reads what it uses. */
export interface HookEventInput {
  hook_event_name?: unknown;
  session_id?: unknown;
  cwd?: unknown;
  source?: unknown;
  prompt?: unknown;
}

/** What a hook's own part is given: the parsed stdin, a list to report problems in, and the wait the deadline may end. */
export interface HookContext {
  input: HookEventInput;
  problems: string[];
  waiting: Waiting;
}

/**
 * Runs a hook fail-open: reads the hook's stdin JSON (in the dialect of `io.agent`), hands it to `respond`, and
 * prints what that returns. Whatever goes wrong, it resolves 0 within its deadline (default 2 s,
 * or `IFLOW_MEMORY_HOOK_DEADLINE_MS`), prints valid JSON or nothing, and says what went wrong on
 * stderr.
 *
 * @example
 * await runHook(io, "the session starts without memory", async ({ input }) => JSON.stringify({ hookSpecificOutput: … }) + "\n");
 */
export async function runHook(io: HookIO, withoutMemory: string, respond: (context: HookContext) => Promise<string>): Promise<0> {
  const deadlineMs = parseDeadline(io.env.IFLOW_MEMORY_HOOK_DEADLINE_MS);
  const startedAt = Math.min(Date.now(), io.startedAt ?? Date.now());
  const problems: string[] = [];
  // The deadline can only end a wait (code that runs without waiting cannot be cut short), so
  // its timer is set at the first wait: reading a pipe, running git, or working an injection out.
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
    const build = async () => {
      const stdin = await readStdin(io.stdin, Math.min(STDIN_TIMEOUT_MS, deadlineMs), waiting.begin);
      if (stdin.timedOut) problems.push(`stdin did not close within ${STDIN_TIMEOUT_MS} ms; reading what arrived`);
      if (stdin.failure !== undefined) problems.push(`stdin could not be read (${stdin.failure}); reading what arrived`);
      return respond({ input: agentDialect(io.agent).readInput(parseInput(stdin.text, problems)), problems, waiting });
    };
    output = await Promise.race([build(), deadline]);
    if (output === null) {
      const later = waiting.onGiveUp?.() ?? "";
      problems.push(`gave up after ${deadlineMs} ms; ${withoutMemory}${later}`);
    }
  } catch (error) {
    // Its first line: node's "Cannot find module" goes on with the require stack.
    problems.push(`failed (${String((error as Error).message).split("\n")[0]}); ${withoutMemory}`);
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
export interface Waiting {
  begin(): void;
  /** Set while a wait that the deadline may end can still be finished elsewhere; returns what to tell the user. */
  onGiveUp: (() => string) | undefined;
}

/**
 * The project a hook works for: the stdin's `cwd` (else `$CLAUDE_PROJECT_DIR`, else the process's
 * folder), walked up to the nearest folder with `.git` or `docs/knowledge-bank`; and the global store.
 */
export async function hookSources(io: HookIO, input: HookEventInput): Promise<InjectionSources> {
  const start =
    typeof input.cwd === "string" && input.cwd !== ""
      ? input.cwd
      : io.env.CLAUDE_PROJECT_DIR !== undefined && io.env.CLAUDE_PROJECT_DIR !== ""
        ? io.env.CLAUDE_PROJECT_DIR
        : io.cwd;
  return { projectRoot: await findProjectRoot(start), globalStoreDir: resolveGlobalStoreDir({ env: io.env }) };
}

/**
 * Whether this hook is the one to inject for its session's event: when two of ours run for one
 * session (the plugin and `setup claude` both installed), only the first to get here does
 * (`claimSessionEvent`); the other prints nothing and says why on stderr. Without a session id,
 * nothing can be shared between them: true.
 */
export function claimInjection(sources: InjectionSources, input: HookEventInput, event: string, problems: string[], agent: AgentName = "claude"): boolean {
  if (typeof input.session_id !== "string" || input.session_id === "") return true;
  if (claimSessionEvent(sources.globalStoreDir, input.session_id, event)) return true;
  if (agent !== "claude") {
    problems.push(`another iflow-memory hook injected for this session's ${event} already; nothing printed (is iflow-memory registered twice in ${agent}'s hooks? \`iflow-memory setup ${agent} --uninstall\` removes ours)`);
    return false;
  }
  problems.push(
    `another iflow-memory hook injected for this session's ${event} already; nothing printed (are both the plugin and \`iflow-memory setup claude\` installed? keep one: \`iflow-memory setup claude --uninstall\`, or uninstall the plugin)`,
  );
  return false;
}

/** Reports the store's warnings among the hook's problems. */
export function reportWarnings(warnings: readonly StoreWarning[], problems: string[]): void {
  for (const warning of warnings) problems.push(`warning: ${formatWarning(warning)}`);
}

/**
 * `injection` with `ranking` (what `CachedInjection.ranking` read) for a planner. Not a spread:
 * an injection grown or worked out by this start works today's plan out when it is first read (a
 * getter), which a spread reads, and a start that ranks never needs (some 3 ms of a start after an
 * edit on the real bank, under the profiler).
 */
export function withRanking(injection: SessionInjection, ranking: SessionInjection["ranking"]): SessionInjection {
  if (ranking === undefined || ranking === injection.ranking) return injection;
  return {
    config: injection.config,
    configWarnings: injection.configWarnings,
    warnings: injection.warnings,
    ranking,
    get plan() {
      return injection.plan;
    },
  };
}

/** A session injection from `cachedInjection`, and how to get what relevance ranks. */
export interface CachedInjection {
  injection: SessionInjection;
  /**
   * The candidates and their index: kept in a file of their own beside the cached injection, so
   * that a hook that does not rank (today's order, injection off) never reads them; worked out
   * again when that file is missing or stale. Undefined when the config ranks nothing.
   */
  ranking(): Promise<SessionInjection["ranking"]>;
  /**
   * The last session-start plan made from these same files, and its query (`JSON.stringify` of
   * it); null when there is none or the cache is off. Read once.
   */
  lastPlan(): { query: string; plan: SessionPlan } | null;
  /** Keeps a plan made from these files for `query`, for the next start's `lastPlan` (when the files have settled, as the injection's cache). */
  savePlan(query: string, plan: SessionPlan): Promise<void>;
  /** Said on stderr when the injection is the one made before the memory files last changed (`readStaleInjection`). */
  note?: string;
}

/**
 * The session injection of `sources`: from the cache when none of its files changed, else worked
 * out (in a worker for large files) and cached — by a background refresh, where one can be
 * claimed, once the hook exits. Memory files over `IN_PROCESS_MAX_BYTES` take
 * far longer to work out than a session start may wait: when they changed and the injection made
 * before the change (same config) is cached, the session gets that one at once, and a background
 * process works the new one out for the next session. See `HookIO`.
 */
export async function cachedInjection(io: HookIO, sources: InjectionSources, waiting: Waiting, options: CachedInjectionOptions = {}): Promise<CachedInjection> {
  const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
  const now = (io.now ?? (() => new Date()))().getTime();
  const fingerprint = injectionFingerprint({ ...sources, salt: MEMORY_CACHE_SALT, now });
  // Where there is no memory at all, there is nothing to cache: no `.cache` (nor a global store) is made for it.
  const cacheOn = io.env.IFLOW_MEMORY_HOOK_CACHE !== "0" && fingerprint.memory;
  const { refreshInBackground } = io;
  // Files this large are worked out in a worker, and may take longer than a session start may wait.
  const large = io.prepareAside !== undefined && fingerprint.bytes > IN_PROCESS_MAX_BYTES;
  const prepare = async (): Promise<SessionInjection> => {
    waiting.begin();
    const known = knownConfig();
    options.beforePrepare?.(known?.config ?? null);
    if (large && cacheOn && refreshInBackground !== undefined) {
      waiting.onGiveUp = () => startRefresh(refreshInBackground, io.atExit, path, sources, fingerprint.bytes);
    }
    // What is kept of settled files, the injection and its ranking's cache (every term's postings,
    // where this start's plan reads its query's) are written by a background refresh, where one
    // can be started and none runs already (it may have read the files before they changed): the
    // start reads the files and keeps nothing. Else the start keeps and caches them itself.
    // (Large files' injection comes from the worker with its index whole: only the write is left.)
    const aside = cacheOn && fingerprint.settled && !large && refreshInBackground !== undefined && launchRefresh(refreshInBackground, io.atExit, path, sources) === "claimed";
    // The files read in the hook's own thread (`EntryFileCache.inThread`): its process cannot exit before a read on libuv's threads returns.
    const fileCache = cacheOn ? { fileCache: { ...entryFileCache(sources.globalStoreDir), readOnly: aside, inThread: true } } : {};
    const injection = await (large ? io.prepareAside! : io.prepare)({ ...sources, ...fileCache, ...(known === null ? {} : { config: known }) });
    waiting.onGiveUp = undefined;
    // A cache that cannot be written (no global store, a read-only home) only costs speed.
    if (cacheOn && fingerprint.settled && !aside) await writeCachedInjection(path, fingerprint.value, injection).catch(() => undefined);
    return injection;
  };
  // The injection cached for these files, or else the one made before they last changed (same config).
  const kept = cacheOn ? readCachedInjectionOrEarlier(path, fingerprint, { earlier: true }) : null;
  // Files that changed: the injection made before the change grown by the learnings appended to
  // one of them, where its ranking's cache can grow it (git started first, as for a preparation);
  // else null, and the files are read — large ones give the injection made before the change,
  // while a background process works out the new one.
  const growEarlier = async (grow: GrowInjection, before: NonNullable<typeof kept>): Promise<SessionInjection | null> => {
    const ranking = readCachedRanking(path, before.fingerprint);
    if (ranking?.growth === undefined) return null;
    waiting.begin();
    options.beforePrepare?.(before.injection.config);
    // Not a spread: today's plan of the earlier injection, which growing it never reads, stays unparsed.
    return grow(withRanking(before.injection, ranking), sources).catch(() => null);
  };
  const grown = kept?.stale === true && io.grow !== undefined ? await growEarlier(io.grow, kept) : null;
  const cached = kept?.stale === false || (large && refreshInBackground !== undefined) ? kept : null;
  // The config as the config file gives it now, where that is known without reading the file:
  // the defaults without one, else that of an injection made from the file in the same state (its
  // fingerprint holds the file's): a start after an edit of a memory file neither reads the
  // config again nor loads the YAML parser. Null: not known until the file is read.
  const knownConfig = (): KnownConfig | null => {
    if (!fingerprint.configFile) {
      const { config, warnings } = configWithoutFile(sources.projectRoot);
      return { config, warnings };
    }
    return kept === null ? null : { config: kept.injection.config, warnings: kept.injection.configWarnings };
  };
  const stale = cached?.stale === true && grown === null;
  let note: string | undefined;
  if (stale) note = `the memory files changed since the last session; this one gets them as they were before${startRefresh(refreshInBackground!, io.atExit, path, sources, fingerprint.bytes)}`;
  // Grown: the files' own injection is worked out for the next session start, as after any change
  // (by a start that finds them settled, or at once for large files, whose refresh waits for that).
  else if (grown !== null && (fingerprint.settled || large) && refreshInBackground !== undefined) launchRefresh(refreshInBackground, io.atExit, path, sources);
  // The fingerprint that the cached injection, its ranking and its plan were made with.
  const madeWith = grown !== null ? fingerprint.value : (cached?.fingerprint ?? fingerprint.value);
  const injection = grown ?? cached?.injection ?? (await prepare());
  return {
    injection,
    lastPlan: () => (cacheOn && (cached !== null || grown !== null) ? readCachedPlan(path, madeWith) : null),
    savePlan: async (query, plan) => {
      // Not kept is only slower: like the injection's cache. A plan of the files before a change
      // is kept for them (they had settled when they were cached), not for the files now.
      if (cacheOn && (fingerprint.settled || stale)) await writeCachedPlan(path, madeWith, query, plan).catch(() => undefined);
    },
    ranking: async () => {
      if (injection.ranking !== undefined || (!injection.config.promptRecall && injection.config.injectionRanking === "original")) return injection.ranking;
      const kept = cacheOn ? readCachedRanking(path, madeWith) : null;
      // Without the ranking of the files before the change, today's order (working it out is what the background does).
      return kept ?? (stale ? undefined : (await prepare()).ranking);
    },
    ...(note === undefined ? {} : { note }),
  };
}

export interface CachedInjectionOptions {
  /**
   * Called when the injection is to be worked out from the files (not cached, or stale) before
   * that starts, with the config as far as it is known then (null: not known until the files are
   * read): a caller may start what it waits for later, as the session start starts git.
   */
  beforePrepare?: (config: MemoryConfig | null) => void;
}

/** Starts the background refresh unless one is running already; says what the next session gets. */
function startRefresh(refresh: Refresh, atExit: HookIO["atExit"], path: string, sources: InjectionSources, bytes: number): string {
  const size = `${(bytes / 1_048_576).toFixed(1)} MB`;
  const started = launchRefresh(refresh, atExit, path, sources);
  if (started === "taken") return `; the memory files (${size}) are being read for the next session by an earlier one`;
  if (started === "impossible") return `; the memory files (${size}) take longer than that to read, and ${dirname(path)} cannot cache them`;
  if (started === "failed") return `; the memory files (${size}) take longer than that to read`;
  return `; the memory files (${size}) are being read in the background for the next session`;
}

// Claims the refresh (`claimCacheRefresh`) and, claimed, starts it (through `atExit`, when the
// process exits): "failed" when it could not be started at once. Whenever it cannot be started,
// the claim is released.
function launchRefresh(refresh: Refresh, atExit: HookIO["atExit"], path: string, sources: InjectionSources): RefreshClaim | "failed" {
  const claim = claimCacheRefresh(path);
  if (claim !== "claimed") return claim;
  const start = (): boolean => {
    try {
      const pid = refresh(sources);
      if (typeof pid === "number") handOverCacheRefresh(path, pid);
      return true;
    } catch {
      releaseCacheRefresh(path);
      return false;
    }
  };
  if (atExit === undefined) return start() ? claim : "failed";
  atExit(start);
  return claim;
}

type Refresh = NonNullable<HookIO["refreshInBackground"]>;

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
  options: InjectionSources & { prepare: PrepareInjection; now?: () => number; sleep?: (ms: number) => Promise<void> },
): Promise<void> {
  const { prepare, now = Date.now, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } = options;
  const sources = { projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir };
  const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
  const stamp = () => injectionFingerprint({ ...sources, salt: MEMORY_CACHE_SALT, now: now() });
  try {
    let fingerprint = stamp();
    if (!fingerprint.settled) {
      await sleep(SETTLE_MS);
      fingerprint = stamp();
    }
    const injection = await prepare({ ...sources, fileCache: entryFileCache(sources.globalStoreDir) });
    if (fingerprint.settled) await writeCachedInjection(path, fingerprint.value, injection);
  } finally {
    releaseCacheRefresh(path);
  }
}

function parseInput(text: string, problems: string[]): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (isJsonObject(value)) return value;
    problems.push("stdin is JSON but not an object; using defaults (source startup, the current directory)");
  } catch {
    problems.push("stdin is not valid JSON; using defaults (source startup, the current directory)");
  }
  return {};
}

function parseDeadline(value: string | undefined): number {
  const number = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(number) && number > 0 ? number : DEFAULT_DEADLINE_MS;
}
