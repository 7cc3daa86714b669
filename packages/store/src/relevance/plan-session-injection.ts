import { planInjection, PROMPT_RECALL_FLOOR, queryTerms, withIndexFetch, type EntryFeedback, type MemoryFetch, type RankingOptions, type RelevanceQuery } from "@iflow-memory/ranker";
import { sessionIndex, trackedPlan, type SessionInjection } from "../prepare-session-injection.js";
import type { SessionSignals } from "../signals/index.js";
import type { TrackedPlan } from "../write-tracking.js";

/** Characters a prompt's recall may add at most: a prompt is a small step, not a new session. */
export const PROMPT_RECALL_MAX_CHARS = 3000;

/** Lines a prompt's index names at most: the relevant entries beyond its limit, never the core. */
export const PROMPT_INDEX_MAX_LINES = 3;

/** A plan and how it was chosen. */
export type SessionPlan = TrackedPlan & { ranking: "relevance" | "original" };

/**
 * What a session start injects. With `memory_injection_ranking: relevance` (the default) and a
 * query that has terms (the session's signals): the entries relevant to it, best first, then the
 * proven core in today's order, within the config's limit and budget — never empty while there
 * are entries; with `strict`, the relevant entries alone. Otherwise (no signal, `original`),
 * today's plan. With `memory_injection_index` (the default), an index of the next entries follows,
 * its heading naming how to fetch them (`fetch`: the MCP tools, or `iflow-memory show`).
 *
 * @example
 * planSessionStart(injection, sessionQuery(await gatherSessionSignals({ projectRoot })), { fetch: "mcp" }).block;
 */
export function planSessionStart(
  injection: SessionInjection,
  query: RelevanceQuery | null,
  options: { feedback?: ReadonlyMap<string, EntryFeedback>; fetch?: MemoryFetch } = {},
): SessionPlan {
  const { config, ranking } = injection;
  const fetch = options.fetch ?? "mcp";
  if (!config.injectionEnabled || config.injectionRanking === "original" || ranking === undefined || query === null || queryTerms(query).size === 0) {
    return originalSessionPlan(injection, fetch);
  }
  const plan = planInjection({
    candidates: ranking.entries ?? ranking.candidates,
    limit: config.injectionLimit,
    maxChars: config.injectionMaxChars,
    query,
    ranking: rankingOptions(ranking, options),
    sharedHashPrefixes: ranking.sharedHashPrefixes,
    fillWithCore: config.injectionRanking === "relevance",
    ...sessionIndex(config),
  });
  return { ...trackedPlan(plan), block: withIndexFetch(plan.block, fetch), ranking: "relevance" };
}

/**
 * What a session start injects without a query: today's plan (`planSessionStart`'s answer for a
 * null query, or with `memory_injection_ranking: original`), its index naming `fetch`. Needs
 * neither the ranking nor the ranker's code.
 *
 * @example
 * originalSessionPlan(injection, "mcp").block;
 */
export function originalSessionPlan(injection: SessionInjection, fetch: MemoryFetch = "mcp"): SessionPlan {
  return { ...injection.plan, block: withIndexFetch(injection.plan.block, fetch), ranking: "original" };
}

/**
 * What a prompt adds: the entries relevant to the prompt that the session has not been given
 * (`given`), at most `memory_prompt_recall_limit` and `PROMPT_RECALL_MAX_CHARS` characters;
 * then a line (hash and title) for each of a few more over the floor (`PROMPT_INDEX_MAX_LINES`);
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
  options: { feedback?: ReadonlyMap<string, EntryFeedback>; fetch?: MemoryFetch } = {},
): TrackedPlan {
  const { config, ranking } = injection;
  // A prompt of stop words alone ("try that again", "yes, do it") has nothing to match: without
  // this, planning would take it for a session with nothing to rank by and give today's order.
  if (!config.injectionEnabled || !config.promptRecall || config.promptRecallLimit === 0 || ranking === undefined || queryTerms({ text: prompt }).size === 0) {
    return { block: "", entries: [], sources: { local: 0, global: 0 }, droppedForBudget: 0 };
  }
  const plan = planInjection({
    candidates: ranking.entries ?? ranking.candidates,
    limit: config.promptRecallLimit,
    maxChars: Math.min(PROMPT_RECALL_MAX_CHARS, config.injectionMaxChars),
    query: { text: prompt },
    exclude: given,
    ranking: { ...rankingOptions(ranking, options), floor: PROMPT_RECALL_FLOOR },
    sharedHashPrefixes: ranking.sharedHashPrefixes,
    ...(config.injectionIndex ? { index: { fetch: options.fetch ?? "mcp", share: 0, maxLines: PROMPT_INDEX_MAX_LINES } } : {}),
  });
  return trackedPlan(plan);
}

function rankingOptions(ranking: NonNullable<SessionInjection["ranking"]>, options: { feedback?: ReadonlyMap<string, EntryFeedback> }): RankingOptions {
  return { index: ranking.index, orders: ranking.orders, ...(ranking.facts === undefined ? {} : { facts: ranking.facts }), ...(options.feedback === undefined ? {} : { feedback: options.feedback }) };
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
