import { join } from "node:path";
import type { extendSessionInjection, prepareSessionInjection, SessionInjection } from "@iflow-memory/store";
import { agentFromArguments } from "../agent-dialect.js";
import { descriptorIO } from "../descriptor-io.js";
import type { GrowInjection, HookIO, InjectionSources, PrepareInjection } from "../hook-runtime.js";
import type { SessionPlanner } from "../run-session-start-hook.js";
import { startInBackground } from "../start-in-background.js";
import { requireWithCodeCache } from "./run-with-code-cache.js";

// The hooks are small files side by side. session-start.cjs and user-prompt-submit.cjs run
// session-start-run.cjs and user-prompt-submit-run.cjs (with V8's code cache), which read
// stdin, the cache and print; the parser and YAML library live in session-start-prepare.cjs,
// loaded only when the cached injection is stale; the ranker a session start plans with, in
// session-start-plan.cjs, loaded only for signals it has no plan for (or from the preparation's
// file, when that is loaded); session-start-aside.cjs runs the preparation in a worker thread or
// a background process when the memory files are large; session-start-grow.cjs grows the injection
// cached before an edit by the learnings appended (the parser and the ranker, not the readers).
const PREPARE_BUNDLE = "session-start-prepare.cjs";
const PLAN_BUNDLE = "session-start-plan.cjs";
const GROW_BUNDLE = "session-start-grow.cjs";
export const ASIDE_BUNDLE = join(__dirname, "session-start-aside.cjs");

/** Works the injection out in this thread, loading the prepare bundle (with V8's code cache) on first use. */
export const prepareHere: PrepareInjection = async (options) => {
  prepareBundle ??= requireWithCodeCache(PREPARE_BUNDLE, { eager: true }) as typeof prepareBundle & object;
  return prepareBundle.prepareSessionInjection(options);
};
let prepareBundle: (SessionPlanner & { prepareSessionInjection: typeof prepareSessionInjection }) | undefined;

/** Grows the injection cached before an edit by the learnings appended (the store's `extendSessionInjection`), loading the grow bundle (with V8's code cache) on first use. */
export const growHere: GrowInjection = async (earlier, sources) => {
  growBundle ??= requireWithCodeCache(GROW_BUNDLE, { eager: true }) as typeof growBundle & object;
  return growBundle.extendSessionInjection(earlier, { projectRoot: sources.projectRoot, inThread: true });
};
let growBundle: (SessionPlanner & { extendSessionInjection: typeof extendSessionInjection }) | undefined;

/** The ranker a session start plans with: the preparation's or the grow file's when one is loaded, else its own file (with V8's code cache), loaded on first use. */
export const planHere = (): SessionPlanner => (planBundle ??= prepareBundle ?? growBundle ?? (requireWithCodeCache(PLAN_BUNDLE) as SessionPlanner));
let planBundle: SessionPlanner | undefined;

// worker_threads and child_process are loaded only where used: most hook runs need neither.
/** Works the injection out in a worker thread, which the hook's deadline can stop waiting for. */
export function prepareInWorker(sources: InjectionSources): Promise<SessionInjection> {
  const { Worker } = require("node:worker_threads") as typeof import("node:worker_threads");
  return new Promise((resolve, reject) => {
    const worker = new Worker(ASIDE_BUNDLE, { workerData: sources });
    worker.once("message", (injection: SessionInjection) => resolve(injection));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the worker reading the memory files stopped with exit code ${code}`)));
  });
}

/**
 * Starts a process that caches the injection for the next hook run, and gives its id (for the
 * refresh's claim to name): `startInBackground`, as the hook exits.
 */
export function refreshInBackground(sources: InjectionSources): number | undefined {
  return startInBackground([ASIDE_BUNDLE, sources.projectRoot, sources.globalStoreDir]);
}

// child_process is loaded when git first runs: most hook runs never run it.
const spawnWhenNeeded = ((...args: Parameters<typeof import("node:child_process").spawn>) =>
  (require("node:child_process") as typeof import("node:child_process")).spawn(...args)) as typeof import("node:child_process").spawn;
const spawnSyncWhenNeeded = ((...args: Parameters<typeof import("node:child_process").spawnSync>) =>
  (require("node:child_process") as typeof import("node:child_process")).spawnSync(...args)) as typeof import("node:child_process").spawnSync;

/** Runs a hook as its bundle does: the process's stdio and environment, the files beside it, exit 0 whatever happens. */
export function runBundledHook(run: (io: HookIO) => Promise<number>): void {
  // The agent is the one its registered command names (`setup codex` adds `--agent codex`).
  const agent = agentFromArguments(process.argv.slice(2));
  if (agent === null) {
    process.stderr.write("iflow-memory: --agent takes claude, codex or gemini; nothing injected (run `iflow-memory setup <agent>` again to register the hook anew)\n");
    process.exit(0);
  }
  run({
    ...descriptorIO(),
    prepare: prepareHere,
    prepareAside: prepareInWorker,
    grow: growHere,
    refreshInBackground,
    atExit: (task) => process.once("exit", task),
    spawn: spawnWhenNeeded,
    spawnSync: spawnSyncWhenNeeded,
    // Registered with the MCP server beside it (the plugin, `setup claude`): its index names the MCP tools.
    fetch: process.argv.includes("--mcp") ? "mcp" : "cli",
    agent,
    env: process.env,
    cwd: process.cwd(),
    // The deadline holds from the process's start: node's own start and the bundle's load count.
    // From process.uptime(): reading performance.timeOrigin loads perf_hooks, some 2 to 4 ms.
    startedAt: Date.now() - process.uptime() * 1000,
  }).then(
    (code) => process.exit(code),
    () => process.exit(0),
  );
}
