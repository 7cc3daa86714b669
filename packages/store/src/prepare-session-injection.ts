import { entryOrders, injectionCandidates, lazyRelevanceIndex, planInjection, plainEntry, sharedHashPrefixes, type InjectionPlan, type InjectionIndex, type LazyRelevanceIndex } from "@iflow-memory/ranker";
import type { EntryFileCache } from "./caches/entry-file-cache.js";
import { rankedFiles } from "./extend-session-injection.js";
import { readConfig, type ConfigRead, type MemoryConfig } from "./read-config.js";
import type { RankedFile, RankingData } from "./caches/ranking-cache-file.js";
import { readMemorySources } from "./read-memory-sources.js";
import type { StoreWarning } from "./store-warning.js";
import { projectName, type TrackedPlan } from "./write-tracking.js";

/**
 * What a session's injections are worked out from, read from the files alone: the project's
 * config, today's plan, and what relevance ranks (the candidates and their index). Plain data
 * (JSON-serialisable), so the hooks can cache it until one of its files changes; the query — what
 * the session or the prompt is about — is applied per session (`planSessionInjection`).
 */
export interface SessionInjection {
  config: MemoryConfig;
  configWarnings: StoreWarning[];
  /** Today's order: for `memory_injection_ranking: original`, and a session with nothing to rank by. Empty when injection is off. */
  plan: TrackedPlan;
  /** The entries relevance chooses from and their full-text index; absent when injection is off or nothing ranks by relevance. */
  ranking?: RankingData;
  warnings: StoreWarning[];
}

/**
 * Reads a project's config, its knowledge bank and (unless the config turns it off) the global
 * store; plans today's injection within the config's limit and character budget, and indexes
 * the candidates for relevance. With `fileCache`, a memory file unchanged since it was last read
 * is taken from that cache instead of being parsed again (see `readEntryFiles`). With `config`,
 * the config read from the config file as it is now (an injection cached since, whose
 * fingerprint holds that file's state): it is not read again, nor the YAML parser loaded.
 *
 * @example
 * const injection = await prepareSessionInjection({ projectRoot: "/work/webshop",
 *   globalStoreDir: "/home/ada/.claude/iflow/memory" });
 * injection.plan.block; // "## Engineering Memory (from knowledge bank)\n\n…"
 */
export async function prepareSessionInjection(options: { projectRoot: string; globalStoreDir: string; fileCache?: EntryFileCache; config?: KnownConfig }): Promise<SessionInjection> {
  const { config, warnings: configWarnings } = options.config ?? (await readConfig(options.projectRoot));
  if (!config.injectionEnabled) {
    return { config, configWarnings, plan: { block: "", entries: [], sources: { local: 0, global: 0 }, droppedForBudget: 0 }, warnings: [] };
  }
  const ranks = config.injectionRanking !== "original" || config.promptRecall;
  const sources = await readMemorySources({
    projectRoot: options.projectRoot,
    globalStoreDir: options.globalStoreDir,
    includeGlobal: config.globalEnabled,
    ...(options.fileCache === undefined ? {} : { cache: options.fileCache, terms: ranks }),
  });
  const candidates = injectionCandidates({ local: sources.local, global: sources.global, project: projectName(options.projectRoot) });
  if (!ranks) {
    const plan = planInjection({ candidates, limit: config.injectionLimit, maxChars: config.injectionMaxChars, ...sessionIndex(config) });
    return { config, configWarnings, plan: trackedPlan(plan), warnings: sources.warnings };
  }
  // Today's order, once for today's plan and every later one. The index is worked out as far as
  // it is read: a plan reads its query's terms, a cache of the ranking every term.
  const ranking: RankingData = {
    candidates,
    index: lazyRelevanceIndex(candidates, undefined, sources.terms),
    orders: entryOrders(candidates),
    sharedHashPrefixes: sharedHashPrefixes(candidates),
  };
  // The files, with where each one's candidates are, worked out when a cache of the ranking is
  // written: how the ranking was read, not what it is (not enumerable: a copy, a structured clone
  // or a comparison of rankings leaves it out).
  let files: RankedFile[] | null | undefined;
  Object.defineProperty(ranking, "files", {
    get: () => (files ??= sources.files === undefined ? null : rankedFiles(sources.files, projectName(options.projectRoot), candidates)),
    enumerable: false,
  });
  // Today's plan when it is first read: a session start with signals to rank by never reads it (a background refresh caches it).
  let plan: TrackedPlan | undefined;
  return {
    config,
    configWarnings,
    get plan() {
      return (plan ??= trackedPlan(planInjection({ candidates, limit: config.injectionLimit, maxChars: config.injectionMaxChars, ...sessionIndex(config), ranking: { orders: ranking.orders }, sharedHashPrefixes: ranking.sharedHashPrefixes })));
    },
    ranking,
    warnings: sources.warnings,
  };
}

/** A project's config and the warnings of reading it, as `readConfig` gave them (and a `SessionInjection` keeps them). */
export type KnownConfig = Pick<ConfigRead, "config" | "warnings">;

/**
 * The injection as a structured clone copies it whole, to post it from a worker thread: its
 * candidates read lazily (a large file's kept entries, whose fields are getters a clone leaves
 * out) made plain entries, and its index built whole.
 *
 * @example
 * port.postMessage(plainSessionInjection(await prepareSessionInjection(sources)));
 */
export function plainSessionInjection(injection: SessionInjection): SessionInjection {
  const { ranking } = injection;
  if (ranking === undefined) return injection;
  // A lazy index built whole: known by its method, so that the worker's bundle need not hold its class.
  const lazy = "whole" in ranking.index ? (ranking.index as LazyRelevanceIndex) : null;
  const index = lazy === null ? ranking.index : lazy.whole();
  // The files it was read from and its words per field, worked out here: what a cache of it keeps to grow it by (`RankingGrowth`).
  const { files } = ranking;
  const fieldCounts = files === undefined || files === null || lazy === null ? null : lazy.fieldCounts();
  return {
    ...injection,
    ranking: { ...ranking, candidates: ranking.candidates.map(plainEntry), index, ...(files === undefined ? {} : { files }), ...(fieldCounts === null ? {} : { fieldCounts }) },
  };
}

/** Lines a session start's index names at most. */
export const SESSION_INDEX_MAX_LINES = 150;
/**
 * The share of the budget that entries of the proven core may not take when there is an index:
 * room for titles of the rest. Chosen with `SESSION_MATCHES_IN_FULL` by `pnpm eval:relevance` on
 * its dev contexts: of the settings that name at least 0.70 of the labelled entries in full or by
 * title, the one with the most in full and by title together (a tie within 0.01 to more in full).
 */
export const SESSION_INDEX_SHARE = 0.7;
/** Entries that match the session shown in full at most, with an index; the next lead the index (see `SESSION_INDEX_SHARE`). */
export const SESSION_MATCHES_IN_FULL = 5;

/**
 * The `index` of a session start's `planInjection` under `config` (none with
 * `memory_injection_index: false`), its heading naming the MCP tools; `planSessionStart` names
 * the command line instead where the MCP server is not registered.
 */
export function sessionIndex(config: MemoryConfig): { index?: InjectionIndex } {
  return config.injectionIndex ? { index: { fetch: "mcp", share: SESSION_INDEX_SHARE, maxLines: SESSION_INDEX_MAX_LINES, matchesInFull: SESSION_MATCHES_IN_FULL } } : {};
}

/** What tracking and the session ledger keep of a plan. */
export function trackedPlan(plan: InjectionPlan): TrackedPlan {
  return {
    block: plan.block,
    entries: plan.entries.map((entry) => {
      const terms = plan.matchedTerms?.get(entry);
      return { name: entry.name, contentHash: entry.contentHash, ...(terms === undefined ? {} : { matchedTerms: terms }) };
    }),
    sources: plan.sources,
    droppedForBudget: plan.droppedForBudget,
    ...(plan.indexed.length === 0 ? {} : { indexed: plan.indexed.map((entry) => ({ name: entry.name, contentHash: entry.contentHash })) }),
  };
}
