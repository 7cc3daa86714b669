import { planInjection, type InjectionIndex, type InjectionPlan, type RelevanceQuery } from "@iflow-memory/ranker";
import type { EntryFileCache } from "./caches/entry-file-cache.js";
import { injectionGrowth, type InjectionGrowth } from "./inject-growth.js";
import { readFeedback } from "./read-feedback.js";
import { readMemorySources } from "./read-memory-sources.js";
import type { StoreWarning } from "./store-warning.js";
import { projectName, trackInjection } from "./write-tracking.js";

export interface InjectMemoryOptions {
  projectRoot: string;
  globalStoreDir: string;
  includeGlobal: boolean;
  /** Entries at most; -1 no limit, 0 none. */
  limit: number;
  /** Characters the block may take at most; null: no budget. */
  maxChars: number | null;
  /** What the session is about: only the entries relevant to it, over the relevance floor. Absent: today's order. */
  query?: RelevanceQuery;
  /** After the entries in full, an index of the next ones (`planInjection`'s `index`), as a session start gives it; needs `maxChars`. */
  index?: InjectionIndex;
  /** Write `.last-injection.json` when something is selected; null: don't. */
  tracking: { now: Date; event?: string | undefined } | null;
  /** Keep each memory file's entries here and take them while the file is unchanged (see `readEntryFiles`). */
  cache?: EntryFileCache;
  /** With `cache`, no query and no index: also the plan's growth (`InjectMemoryResult.growth`). */
  growth?: boolean;
}

export interface InjectMemoryResult {
  project: string;
  plan: InjectionPlan;
  warnings: StoreWarning[];
  ignoredFiles: string[];
  /** Asked for (`growth`): what tells that learnings appended later leave the plan as it is (`InjectionGrowth`), null where that cannot be told. */
  growth?: InjectionGrowth | null;
}

/**
 * The read path end to end: read the knowledge bank and the global store, plan the injection,
 * and record it in the tracking file. A tracking write that fails is a warning; the plan is
 * returned all the same.
 *
 * @example
 * const { plan } = await injectMemory({ projectRoot, globalStoreDir, includeGlobal: true,
 *   limit: 20, maxChars: 9000, tracking: { now: new Date(), event: "startup" } });
 * plan.block; // "## Engineering Memory (from knowledge bank)\n\n…"
 */
export async function injectMemory(options: InjectMemoryOptions): Promise<InjectMemoryResult> {
  const project = projectName(options.projectRoot);
  const growth = options.growth === true && options.cache !== undefined && options.query === undefined && options.index === undefined;
  const sources = await readMemorySources(growth ? { ...options, terms: true } : options);
  const plan = planInjection({
    local: sources.local,
    global: sources.global,
    project,
    limit: options.limit,
    maxChars: options.maxChars,
    // Feedback moves a relevance ranking, as at a session start; today's order stays the original's.
    ...(options.query === undefined ? {} : { query: options.query, ranking: { feedback: readFeedback(options.globalStoreDir) } }),
    ...(options.index === undefined ? {} : { index: options.index }),
  });
  const warnings = [...sources.warnings];
  if (options.tracking !== null) {
    const warning = await trackInjection({ globalStoreDir: options.globalStoreDir, project, plan, ...options.tracking });
    if (warning !== null) warnings.push(warning);
  }
  return {
    project,
    plan,
    warnings,
    ignoredFiles: sources.ignoredFiles,
    ...(options.growth === true ? { growth: growth ? injectionGrowth({ ...sources, project, limit: options.limit }, plan, sources.warnings, sources.files) : null } : {}),
  };
}
