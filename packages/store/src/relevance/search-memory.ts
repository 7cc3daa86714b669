import type { Entry } from "@iflow-memory/parser";
import { buildRelevanceIndex, entryOrders, injectionCandidates, rankEntries, SEARCH_FLOOR, type AnyRelevanceIndex, type EntryList, type EntryOrders, type RankedEntry, type RankingFacts } from "@iflow-memory/ranker";
import { injectionFingerprint, type InjectionFingerprint } from "../caches/injection-cache.js";
import { MEMORY_CACHE_SALT } from "../caches/memory-cache-salt.js";
import { readFeedback } from "../read-feedback.js";
import { readMemorySources, type MemorySources } from "../read-memory-sources.js";
import type { StoreWarning } from "../store-warning.js";
import { projectName } from "../write-tracking.js";
import { sharedRanking } from "./shared-ranking.js";

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
  const searcher = createMemorySearcher(options);
  const answer = await searcher.search(options.query, { limit: options.limit, scope });
  // A command that exits after its answer would cut the cache's write short.
  await searcher.saved();
  return answer;
}

/** A project's memory kept in hand for many searches (an MCP server's life). */
export interface MemorySearcher {
  /** `searchMemory`, on the files as they are now: re-read only when one of them changed. */
  search(query: string, options: { limit: number; scope: SearchScope }): Promise<{ results: RankedEntry[]; warnings: StoreWarning[] }>;
  /** The entries as they are now (local and global, before dedup), and what reading them said. */
  sources(): Promise<MemorySources>;
  /** Settles once what the searches so far read from the files is in the shared cache (see `createMemorySearcher`). */
  saved(): Promise<void>;
}

interface Scoped {
  candidates: EntryList;
  index: AnyRelevanceIndex;
  orders: EntryOrders;
  facts?: RankingFacts;
  warnings: StoreWarning[];
}

/**
 * A searcher over a project's bank and the global store that reads and indexes them once, and
 * again only when a file changed (size, times or inode: the session-start cache's fingerprint).
 * A search of every scope shares the hooks' cache (`sharedRanking`): the index and the ranked
 * fields of every entry come from it when it is valid, the text of an entry only when a result
 * shows it; when it is missing or stale, the files are read as the hooks read them and the cache
 * is written, once the answer is given, for the next reader. Feedback is read at every search,
 * since a vote must move the next search (and a vote alone reads nothing again).
 *
 * @example
 * const searcher = createMemorySearcher({ projectRoot, globalStoreDir });
 * await searcher.search("flaky retries", { limit: 10, scope: "all" });
 */
export function createMemorySearcher(options: { projectRoot: string; globalStoreDir: string; now?: () => number }): MemorySearcher {
  let state: { key: string; fingerprint: InjectionFingerprint; sources: Promise<MemorySources> | null; scopes: Map<SearchScope, Promise<Scoped>> } | null = null;
  let saving: Promise<void> = Promise.resolve();

  const current = () => {
    const fingerprint = injectionFingerprint({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, salt: MEMORY_CACHE_SALT, now: (options.now ?? Date.now)() });
    // A file changed within the clock's granularity may change again unseen: read it again next time.
    if (state === null || state.key !== fingerprint.withoutFeedback) {
      state = { key: fingerprint.settled ? fingerprint.withoutFeedback : "", fingerprint, sources: null, scopes: new Map() };
    }
    return state;
  };
  const sourcesOf = (now: NonNullable<typeof state>) => (now.sources ??= readMemorySources({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, includeGlobal: true }));
  const fromSources = async (now: NonNullable<typeof state>, scope: SearchScope): Promise<Scoped> => {
    const sources = await sourcesOf(now);
    const candidates = injectionCandidates({
      local: scope === "global" ? [] : sources.local,
      global: scope === "project" ? [] : sources.global,
      project: projectName(options.projectRoot),
    });
    return { candidates, index: buildRelevanceIndex(candidates), orders: entryOrders(candidates), warnings: sources.warnings };
  };
  const shared = async (now: NonNullable<typeof state>): Promise<Scoped> => {
    const found = await sharedRanking({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, fingerprint: now.fingerprint });
    if (found.from === "files") {
      // Written after the answer: the search does not wait for it.
      const written = new Promise<void>((resolve) => setImmediate(() => void found.save().then(resolve)));
      saving = Promise.all([saving, written]).then(() => undefined);
    }
    if (found.ranking === null) return fromSources(now, "all");
    const { index, orders, facts } = found.ranking;
    return { candidates: found.ranking.entries ?? found.ranking.candidates, index, orders, ...(facts === undefined ? {} : { facts }), warnings: found.warnings };
  };

  return {
    async search(query, { limit, scope }) {
      const now = current();
      let scoped = now.scopes.get(scope);
      if (scoped === undefined) {
        scoped = scope === "all" ? shared(now) : fromSources(now, scope);
        now.scopes.set(scope, scoped);
        // A failed read is tried again at the next search.
        scoped.catch(() => now.scopes.delete(scope));
      }
      const { candidates, index, orders, facts, warnings } = await scoped;
      const results = rankEntries(candidates, { text: query }, { index, orders, ...(facts === undefined ? {} : { facts }), feedback: readFeedback(options.globalStoreDir), floor: SEARCH_FLOOR, ...(limit < 0 ? {} : { limit }) });
      return { results, warnings };
    },
    async sources() {
      return sourcesOf(current());
    },
    saved: () => saving,
  };
}
