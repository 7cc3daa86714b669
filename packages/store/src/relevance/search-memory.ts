import { injectionCandidates, rankEntries, type RankedEntry } from "@iflow-memory/ranker";
import { readMemorySources } from "../read-memory-sources.js";
import type { StoreWarning } from "../store-warning.js";
import { projectName } from "../write-tracking.js";

export interface SearchMemoryOptions {
  projectRoot: string;
  globalStoreDir: string;
  includeGlobal: boolean;
  query: string;
  /** Results at most; -1 all. */
  limit: number;
}

/**
 * The project's and the global store's entries ranked for a query, with the hooks' ranking
 * (relevance floor included: a query the bank has nothing on finds nothing).
 *
 * @example
 * const { results } = await searchMemory({ projectRoot, globalStoreDir, includeGlobal: true, query: "embedding timeouts", limit: 10 });
 * results[0]?.entry.name; // "Wrapper-Side Emission Outside @with_retry"
 */
export async function searchMemory(options: SearchMemoryOptions): Promise<{ results: RankedEntry[]; warnings: StoreWarning[] }> {
  const sources = await readMemorySources(options);
  const candidates = injectionCandidates({ local: sources.local, global: sources.global, project: projectName(options.projectRoot) });
  const ranked = rankEntries(candidates, { text: options.query });
  return { results: options.limit < 0 ? ranked : ranked.slice(0, options.limit), warnings: sources.warnings };
}
