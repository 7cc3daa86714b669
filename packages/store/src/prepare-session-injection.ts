import { planInjection } from "@iflow-memory/ranker";
import { readConfig, type MemoryConfig } from "./read-config.js";
import { readMemorySources } from "./read-memory-sources.js";
import type { StoreWarning } from "./store-warning.js";
import { projectName, type TrackedPlan } from "./write-tracking.js";

/**
 * What a session start injects, worked out from the files alone: the project's config, the
 * memory block and what tracking records of it. Plain data (JSON-serialisable), so the hook
 * can cache it until one of its files changes.
 */
export interface SessionInjection {
  config: MemoryConfig;
  configWarnings: StoreWarning[];
  /** An empty block when the config turns injection off or nothing is selected. */
  plan: TrackedPlan;
  warnings: StoreWarning[];
}

/**
 * Reads a project's config, its knowledge bank and (unless the config turns it off) the global
 * store, and plans the injection within the config's limit and character budget.
 *
 * @example
 * const { config, plan } = await prepareSessionInjection({ projectRoot: "/work/webshop",
 *   globalStoreDir: "/home/ada/.claude/iflow/memory" });
 * plan.block; // "## Engineering Memory (from knowledge bank)\n\n…"
 */
export async function prepareSessionInjection(options: { projectRoot: string; globalStoreDir: string }): Promise<SessionInjection> {
  const { config, warnings: configWarnings } = await readConfig(options.projectRoot);
  if (!config.injectionEnabled) {
    return { config, configWarnings, plan: { block: "", entries: [], sources: { local: 0, global: 0 }, droppedForBudget: 0 }, warnings: [] };
  }
  const sources = await readMemorySources({ ...options, includeGlobal: config.globalEnabled });
  const plan = planInjection({
    local: sources.local,
    global: sources.global,
    project: projectName(options.projectRoot),
    limit: config.injectionLimit,
    maxChars: config.injectionMaxChars,
  });
  return {
    config,
    configWarnings,
    plan: {
      block: plan.block,
      entries: plan.entries.map((entry) => ({ name: entry.name })),
      sources: plan.sources,
      droppedForBudget: plan.droppedForBudget,
    },
    warnings: sources.warnings,
  };
}
