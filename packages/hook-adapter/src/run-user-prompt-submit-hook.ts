import { forgetCachedInjection, planPromptRecall, readFeedback, readSessionLedger, shortHash } from "@iflow-memory/store";
import { agentDialect } from "./agent-dialect.js";
import { cachedInjection, claimInjection, hookSources, reportWarnings, runHook, withRanking, type HookIO } from "./hook-runtime.js";
import { recordInjection } from "./record-injection.js";

/**
 * Claude Code's UserPromptSubmit hook (Codex CLI's too, and Gemini CLI's BeforeAgent with
 * `io.agent`): for each prompt, the entries relevant to it that the
 * session has not been given yet (its ledger in the global store's cache), at most
 * `memory_prompt_recall_limit` (5) and 3,000 characters, as
 * `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":…}}` (Gemini CLI:
 * `"hookEventName":"BeforeAgent"`); nothing
 * at all when no entry clears the relevance floor — most prompts add nothing. Fail-open, with the
 * same deadline and cache as the SessionStart hook.
 *
 * @example
 * await runUserPromptSubmitHook({ prepare: prepareSessionInjection, stdin: process.stdin,
 *   stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
 */
export function runUserPromptSubmitHook(io: HookIO): Promise<0> {
  const dialect = agentDialect(io.agent);
  return runHook(io, "the prompt goes on without memory", async ({ input, problems, waiting }) => {
    if (typeof input.hook_event_name === "string" && input.hook_event_name !== "UserPromptSubmit") {
      problems.push(`called for ${input.hook_event_name}, not ${dialect.events.prompt}; nothing injected`);
      return "";
    }
    if (typeof input.prompt !== "string" || input.prompt.trim() === "") return "";
    const sources = await hookSources(io, input);
    const prompt = input.prompt;
    try {
      const { injection, ranking, note } = await cachedInjection(io, sources, waiting);
      if (note !== undefined) problems.push(note);
      reportWarnings(injection.configWarnings, problems);
      const { config } = injection;
      if (!config.injectionEnabled || !config.promptRecall || config.promptRecallLimit === 0) return "";
      const candidates = await ranking();
      const given = typeof input.session_id === "string" && input.session_id !== "" ? readSessionLedger(sources.globalStoreDir, input.session_id) : new Set<string>();
      const plan = planPromptRecall(withRanking(injection, candidates), prompt, given, { feedback: readFeedback(sources.globalStoreDir), fetch: io.fetch ?? "cli" });
      if (plan.block === "") return "";
      if (!claimInjection(sources, input, `prompt-${shortHash(prompt)}`, problems, io.agent)) return "";
      reportWarnings(injection.warnings, problems);
      await recordInjection(io, sources, input, { ...plan, ranking: "relevance" }, "prompt", problems);
      return dialect.formatOutput("prompt", plan.block);
    } catch (error) {
      // A failure no read checked for (a damaged cache) would recur at every prompt: the next works it out anew.
      forgetCachedInjection(sources.globalStoreDir, sources.projectRoot);
      throw error;
    }
  });
}
