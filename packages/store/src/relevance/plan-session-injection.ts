import { planInjection, PROMPT_RECALL_FLOOR, queryTerms, type EntryFeedback, type RankingOptions, type RelevanceQuery } from "@iflow-memory/ranker";
import { trackedPlan, type SessionInjection } from "../prepare-session-injection.js";
import type { SessionSignals } from "../signals/index.js";
import type { TrackedPlan } from "../write-tracking.js";

/** Characters a prompt's recall may add at most: a prompt is a small step, not a new session. */
export const PROMPT_RECALL_MAX_CHARS = 3000;

/** A plan and how it was chosen. */
export type SessionPlan = TrackedPlan & { ranking: "relevance" | "original" };

/**
 * What a session start injects: with `memory_injection_ranking: relevance` and a query that has
 * terms (the session's signals), the entries relevant to it, best first, within the config's
 * limit and budget — and none that do not match, even to fill the limit; otherwise today's plan.
 *
 * @example
 * planSessionStart(injection, sessionQuery(await gatherSessionSignals({ projectRoot }))).block;
 */
export function planSessionStart(injection: SessionInjection, query: RelevanceQuery | null, options: { feedback?: ReadonlyMap<string, EntryFeedback> } = {}): SessionPlan {
  const { config, ranking } = injection;
  if (!config.injectionEnabled || config.injectionRanking !== "relevance" || ranking === undefined || query === null || queryTerms(query).size === 0) {
    return { ...injection.plan, ranking: "original" };
  }
  const plan = planInjection({
    candidates: ranking.candidates,
    limit: config.injectionLimit,
    maxChars: config.injectionMaxChars,
    query,
    ranking: rankingOptions(ranking, options),
  });
  return { ...trackedPlan(plan), ranking: "relevance" };
}

/**
 * What a prompt adds: the entries relevant to the prompt that the session has not been given
 * (`given`), at most `memory_prompt_recall_limit` and `PROMPT_RECALL_MAX_CHARS` characters;
 * nothing when none clears the prompt's relevance floor (`PROMPT_RECALL_FLOOR`, stricter than a
 * session start's), when the prompt has no word but stop words, or when prompt recall or
 * injection is off.
 *
 * @example
 * planPromptRecall(injection, "why does the embedding call time out?", readSessionLedger(store, id)).block;
 */
export function planPromptRecall(
  injection: SessionInjection,
  prompt: string,
  given: ReadonlySet<string>,
  options: { feedback?: ReadonlyMap<string, EntryFeedback> } = {},
): TrackedPlan {
  const { config, ranking } = injection;
  // A prompt of stop words alone ("try that again", "yes, do it") has nothing to match: without
  // this, planning would take it for a session with nothing to rank by and give today's order.
  if (!config.injectionEnabled || !config.promptRecall || config.promptRecallLimit === 0 || ranking === undefined || queryTerms({ text: prompt }).size === 0) {
    return { block: "", entries: [], sources: { local: 0, global: 0 }, droppedForBudget: 0 };
  }
  const plan = planInjection({
    candidates: ranking.candidates,
    limit: config.promptRecallLimit,
    maxChars: Math.min(PROMPT_RECALL_MAX_CHARS, config.injectionMaxChars),
    query: { text: prompt },
    exclude: given,
    ranking: { ...rankingOptions(ranking, options), floor: PROMPT_RECALL_FLOOR },
  });
  return trackedPlan(plan);
}

function rankingOptions(ranking: NonNullable<SessionInjection["ranking"]>, options: { feedback?: ReadonlyMap<string, EntryFeedback> }): RankingOptions {
  return { index: ranking.index, ...(options.feedback === undefined ? {} : { feedback: options.feedback }) };
}

/**
 * The relevance query of a session start: what its signals say it is about.
 *
 * @example
 * sessionQuery(await gatherSessionSignals({ projectRoot }));
 * // { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"], … }
 */
export function sessionQuery(signals: SessionSignals): RelevanceQuery {
  return {
    branch: signals.branch,
    changedFiles: signals.changedFiles,
    commitSubjects: signals.commitSubjects,
    feature: signals.feature === null ? null : { title: signals.feature.title, summary: signals.feature.summary },
    stack: signals.stack,
  };
}
