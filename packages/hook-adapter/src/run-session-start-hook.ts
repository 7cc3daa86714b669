import { gatherSessionSignals, planSessionStart, readFeedback, sessionQuery } from "@iflow-memory/store";
import { cachedInjection, hookSources, reportWarnings, runHook, type HookIO } from "./hook-runtime.js";
import { recordInjection } from "./record-injection.js";

/**
 * Claude Code's SessionStart hook: reads the hook's stdin JSON, injects the project's memory
 * and prints `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}}`.
 * With `memory_injection_ranking: relevance` (the default) the entries are those relevant to what
 * the session is about — its git branch, changed files, commit subjects, active feature and
 * stack — and none that are not; without any such signal, today's order. Fail-open: whatever
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
  return runHook(io, "the session starts without memory", async ({ input, problems, waiting }) => {
    if (typeof input.hook_event_name === "string" && input.hook_event_name !== "SessionStart") {
      problems.push(`called for ${input.hook_event_name}, not SessionStart; nothing injected`);
      return "";
    }
    const source = typeof input.source === "string" && input.source !== "" ? input.source : "startup";
    const sources = await hookSources(io, input);
    const { injection, ranking } = await cachedInjection(io, sources, waiting);

    reportWarnings(injection.configWarnings, problems);
    const { config } = injection;
    if (!config.injectionEnabled || !config.injectionEvents.includes(source)) return "";
    reportWarnings(injection.warnings, problems);

    let plan = planSessionStart(injection, null);
    if (config.injectionRanking === "relevance") {
      waiting.begin();
      // The index first: reading it does not wait on the event loop, and git's time budget must
      // not run out while a large one is read (git's answer would then be thrown away).
      const candidates = await ranking();
      const signals = await (io.gatherSignals ?? ((projectRoot: string) => gatherSessionSignals({ projectRoot, env: io.env })))(sources.projectRoot);
      plan = planSessionStart({ ...injection, ...(candidates === undefined ? {} : { ranking: candidates }) }, sessionQuery(signals), { feedback: readFeedback(sources.globalStoreDir) });
    }
    if (plan.block === "") return "";
    await recordInjection(io, sources, input, plan, source, problems);
    return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: plan.block } })}\n`;
  });
}
