import type { Entry } from "@iflow-memory/parser";
import { buildRelevanceIndex, entryOrders, injectionCandidates, rankEntries, SEARCH_FLOOR, type EntryOrders, type RankedEntry, type RelevanceIndex } from "@iflow-memory/ranker";
import { injectionFingerprint } from "../injection-cache.js";
import { readFeedback } from "../read-feedback.js";
import { readMemorySources, type MemorySources } from "../read-memory-sources.js";
import type { StoreWarning } from "../store-warning.js";
import { projectName } from "../write-tracking.js";

/** Whose entries a search ranks: the project's bank, the global store, or both. */
export type SearchScope = "all" | "project" | "global";

export interface SearchMemoryOptions {
  projectRoot: string;
  globalStoreDir: string;
  /** Default all; `includeGlobal: false` is the same as project. */
  scope?: SearchScope;
  includeGlobal?: boolean;
  query: string;
  /** Results at most; -1 all. */
  limit: number;
}

/**
 * The project's and the global store's entries ranked for a query, with the hooks' ranking and
 * the search floor (`SEARCH_FLOOR`: every entry that holds a meaningful word of the query, best
 * first — the reader judges; readers' feedback lifts or sinks an entry among its equals).
 *
 * @example
 * const { results } = await searchMemory({ projectRoot, globalStoreDir, query: "embedding timeouts", limit: 10 });
 * results[0]?.entry.name; // "Wrapper-Side Emission Outside @with_retry"
 */
export async function searchMemory(options: SearchMemoryOptions): Promise<{ results: RankedEntry[]; warnings: StoreWarning[] }> {
  const scope = options.includeGlobal === false ? "project" : (options.scope ?? "all");
  return createMemorySearcher(options).search(options.query, { limit: options.limit, scope });
}

/** A project's memory kept in hand for many searches (an MCP server's life). */
export interface MemorySearcher {
  /** `searchMemory`, on the files as they are now: re-read only when one of them changed. */
  search(query: string, options: { limit: number; scope: SearchScope }): Promise<{ results: RankedEntry[]; warnings: StoreWarning[] }>;
  /** The entries as they are now (local and global, before dedup), and what reading them said. */
  sources(): Promise<MemorySources>;
}

/**
 * A searcher over a project's bank and the global store that reads and indexes them once, and
 * again only when a file changed (size, times or inode: the session-start cache's fingerprint).
 * Feedback is read at every search, since a vote must move the next search.
 *
 * @example
 * const searcher = createMemorySearcher({ projectRoot, globalStoreDir });
 * await searcher.search("flaky retries", { limit: 10, scope: "all" });
 */
export function createMemorySearcher(options: { projectRoot: string; globalStoreDir: string }): MemorySearcher {
  let state: { fingerprint: string; sources: MemorySources; indexes: Map<SearchScope, { candidates: Entry[]; index: RelevanceIndex | null; orders: EntryOrders | null }> } | null = null;

  const current = async () => {
    const fingerprint = injectionFingerprint({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, salt: "search" });
    // A file changed within the clock's granularity may change again unseen: read it again next time.
    if (state === null || state.fingerprint !== fingerprint.value) {
      const sources = await readMemorySources({ ...options, includeGlobal: true });
      state = { fingerprint: fingerprint.settled ? fingerprint.value : "", sources, indexes: new Map() };
    }
    return state;
  };

  return {
    async search(query, { limit, scope }) {
      const { sources, indexes } = await current();
      let scoped = indexes.get(scope);
      if (scoped === undefined) {
        const candidates = injectionCandidates({
          local: scope === "global" ? [] : sources.local,
          global: scope === "project" ? [] : sources.global,
          project: projectName(options.projectRoot),
        });
        scoped = { candidates, index: null, orders: null };
        indexes.set(scope, scoped);
      }
      // The index and the entries' orders are made at the first search that needs them, and kept.
      scoped.index ??= buildRelevanceIndex(scoped.candidates);
      scoped.orders ??= entryOrders(scoped.candidates);
      const ranked = rankEntries(scoped.candidates, { text: query }, { index: scoped.index, orders: scoped.orders, feedback: readFeedback(options.globalStoreDir), floor: SEARCH_FLOOR });
      return { results: limit < 0 ? ranked : ranked.slice(0, limit), warnings: sources.warnings };
    },
    async sources() {
      return (await current()).sources;
    },
  };
}
