import { forgetCachedInjection, gatherSessionSignalsNow, originalSessionPlan, planSessionStart, readFeedback, sessionQuery, startSessionSignals, storeCacheDir, type MemoryConfig, type PendingSessionSignals, type SessionPlan } from "@iflow-memory/store";
import { withIndexFetch } from "@iflow-memory/ranker";
import { agentDialect } from "./agent-dialect.js";
import { cachedInjection, claimInjection, hookSources, reportWarnings, runHook, withRanking, type HookIO } from "./hook-runtime.js";
import { recordInjection } from "./record-injection.js";

/**
 * The SessionStart hook of Claude Code (and, with `io.agent`, of Codex CLI or Gemini CLI): reads
 * the hook's stdin JSON, injects the project's memory and prints
 * `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}}`, the shape all three read.
 * With `memory_injection_ranking: relevance` (the default) the entries relevant to what the
 * session is about — its git branch, changed files, commit subjects, active feature and stack —
 * come first, then the proven core, then an index of the rest (`planSessionStart`); `strict`
 * gives the relevant ones alone. One hook injects per session and event, whichever routes are
 * installed (`claimInjection`). Fail-open: whatever
 * goes wrong, it resolves 0 within its deadline (default 2 s, or `IFLOW_MEMORY_HOOK_DEADLINE_MS`),
 * prints valid JSON or nothing, and says what went wrong on stderr. What the files give is cached
 * in the global store (`.cache/`) until one of them changes; `IFLOW_MEMORY_HOOK_CACHE=0` turns
 * the cache off.
 *
 * @example
 * const code = await runSessionStartHook({ prepare: prepareSessionInjection, stdin: process.stdin,
 *   stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
 */
export function runSessionStartHook(io: HookIO): Promise<0> {
  return runSessionStartHookWith(io, () => ({ planSessionStart, readFeedback }));
}

/** What a session start needs only when it makes a plan for a query: the ranker, and the feedback it weighs. */
export interface SessionPlanner {
  planSessionStart: typeof planSessionStart;
  readFeedback: typeof readFeedback;
}

/**
 * `runSessionStartHook`, with the planner of a new plan from `planner`, called only when one is
 * made: the hook's bundle loads it from a file of its own (a warm start, which reuses a plan or
 * injects today's, never loads the ranker's code).
 *
 * @example
 * runSessionStartHookWith(io, () => require("./session-start-plan.cjs"));
 */
export function runSessionStartHookWith(io: HookIO, planner: () => SessionPlanner): Promise<0> {
  return runHook(io, "the session starts without memory", async ({ input, problems, waiting }) => {
    if (typeof input.hook_event_name === "string" && input.hook_event_name !== "SessionStart") {
      problems.push(`called for ${input.hook_event_name}, not SessionStart; nothing injected`);
      return "";
    }
    const source = typeof input.source === "string" && input.source !== "" ? input.source : "startup";
    const sources = await hookSources(io, input);
    const { gatherSignals } = io;
    const signalsOptions = () => ({ projectRoot: sources.projectRoot, env: io.env, cacheDir: storeCacheDir(sources.globalStoreDir) });
    const startSignals = (): PendingSessionSignals =>
      gatherSignals === undefined
        ? startSessionSignals({ ...signalsOptions(), ...(io.spawn === undefined ? {} : { spawn: io.spawn }) })
        : { signals: () => gatherSignals(sources.projectRoot), cancel: () => undefined };
    // Git before the memory files are read, when they must be and the config ranks as far as is
    // known then: it works while they are parsed, and its answer is there when they are done.
    let early: PendingSessionSignals | null = null;
    // Stopped if the process ends first (the deadline): a git started early must not outlive the hook.
    const stopEarly = () => early?.cancel();
    let pending: PendingSessionSignals | null = null;
    const beforePrepare = (config: MemoryConfig | null) => {
      // Not when git runs already (the index is worked out again after its cache was lost, or the
      // files are read where the injection before their change could not be grown).
      if (early !== null || pending !== null || config?.injectionEnabled !== true || config.injectionRanking === "original" || !config.injectionEvents.includes(source)) return;
      early = startSignals();
      process.once("exit", stopEarly);
    };
    try {
      const { injection, ranking, lastPlan, savePlan, note } = await cachedInjection(io, sources, waiting, { beforePrepare });
      if (note !== undefined) problems.push(note);

      reportWarnings(injection.configWarnings, problems);
      const { config } = injection;
      if (!config.injectionEnabled || !config.injectionEvents.includes(source)) return "";
      reportWarnings(injection.warnings, problems);

      const fetch = io.fetch ?? "cli";
      // Today's plan only where it is the one injected: an injection grown or worked out by this
      // start works it out when first read, which a start that ranks for its signals never needs.
      let plan: SessionPlan | undefined;
      if (config.injectionRanking !== "original") {
        waiting.begin();
        // The plan is a function of the files and the signals alone: when both are those of the
        // last start, so is it, and neither the index nor the ranking is needed. Else the index is
        // read while git runs (after it, when only the signals may have changed).
        const last = lastPlan();
        // Git started (if not started already) so that it works while the index is read, its time
        // budget counting from the wait for its answer, so that reading a large index cannot run it
        // out. With a last plan to compare with there is nothing to do while git runs: it is run to
        // its answer at once (spawnSync), which comes sooner than one started and waited for.
        const atOnce = early === null && last !== null && gatherSignals === undefined && io.spawnSync !== undefined;
        pending = early ?? (atOnce ? null : startSignals());
        const read = last === null ? { candidates: await ranking() } : null;
        const query = sessionQuery(pending !== null ? await pending.signals() : gatherSessionSignalsNow({ ...signalsOptions(), spawnSync: io.spawnSync! }));
        const queryKey = JSON.stringify(query);
        if (last !== null && last.query === queryKey) {
          plan = last.plan;
        } else {
          // The ranker's code before the ranking is read, while the heap is small (a ranking of
          // 50,000 entries is as many objects).
          const planning = read === null ? planner() : null;
          const candidates = read !== null ? read.candidates : await ranking();
          const { planSessionStart: makePlan, readFeedback: feedbackOf } = planning ?? planner();
          plan = makePlan(withRanking(injection, candidates), query, { feedback: feedbackOf(sources.globalStoreDir), fetch });
          await savePlan(queryKey, plan);
        }
      }
      plan ??= originalSessionPlan(injection, fetch);
      if (plan.block === "") return "";
      if (!claimInjection(sources, input, source, problems, io.agent)) return "";
      // A plan kept from an earlier start may have been made by the other route's hook.
      const block = withIndexFetch(plan.block, fetch);
      await recordInjection(io, sources, input, plan, source, problems);
      return agentDialect(io.agent).formatOutput("session-start", block);
    } catch (error) {
      // A failure no read checked for (a damaged cache) would recur at every start: the next works it out anew.
      forgetCachedInjection(sources.globalStoreDir, sources.projectRoot);
      throw error;
    } finally {
      // Git started for a config that turned out not to rank, or by a start that failed before it
      // waited for git, is stopped (one that answered is not affected).
      process.removeListener("exit", stopEarly);
      stopEarly();
      pending?.cancel();
    }
  });
}
