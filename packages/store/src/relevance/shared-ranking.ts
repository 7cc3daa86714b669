import { injectionCachePath, readCachedInjection, readCachedRanking, writeCachedInjection, type InjectionFingerprint } from "../caches/injection-cache.js";
import { prepareSessionInjection, type SessionInjection } from "../prepare-session-injection.js";
import type { RankingData } from "../caches/ranking-cache-file.js";
import type { StoreWarning } from "../store-warning.js";

/** What `sharedRanking` found: the candidates and index a search of everything ranks, and what reading the files said. */
export interface SharedRanking {
  /** Null when the config ranks another set (the global store turned off, injection off) or nothing by relevance: the caller indexes the files itself. */
  ranking: RankingData | null;
  warnings: StoreWarning[];
  /** Where the cache was read from: "cache" (the hooks', or another reader's), or "files" (read now, and cached by `save`). */
  from: "cache" | "files";
  /** Writes what was read from the files into the cache (atomically) for the next reader; nothing when it came from the cache, or the files have not settled. Never rejects. */
  save(): Promise<void>;
}

/**
 * The candidates and full-text index that a search of a project's bank and the global store
 * ranks, shared with the hooks: taken from the store's cached injection when its fingerprint is
 * `fingerprint` (salted with `MEMORY_CACHE_SALT`, as the hooks salt it) — the index and the ranked
 * fields of every entry, each entry's text read from the cache file when first asked for — else
 * worked out from the files as the session-start hook works it out (`prepareSessionInjection`),
 * for `save` to cache. Those are the candidates a search of every scope ranks
 * (`injectionCandidates` of both), unless the config leaves the global store out or ranks nothing
 * by relevance: `ranking` is then null.
 *
 * @example
 * const shared = await sharedRanking({ projectRoot, globalStoreDir, fingerprint: injectionFingerprint({ projectRoot, globalStoreDir, salt: MEMORY_CACHE_SALT }) });
 * rankEntries(shared.ranking!.candidates, { text: "flaky retries" }, { index: shared.ranking!.index });
 * await shared.save();
 */
export async function sharedRanking(options: { projectRoot: string; globalStoreDir: string; fingerprint: InjectionFingerprint }): Promise<SharedRanking> {
  const { fingerprint } = options;
  const path = injectionCachePath(options.globalStoreDir, options.projectRoot);
  // Where there is no memory file, the hooks cache nothing (no `.cache` is made for it): nor does this.
  const cached = fingerprint.memory ? readCachedInjection(path, fingerprint.value) : null;
  if (cached !== null) {
    const ranking = searchesEverything(cached) ? readCachedRanking(path, fingerprint.value) : null;
    if (ranking !== null || !searchesEverything(cached)) return { ranking, warnings: cached.warnings, from: "cache", save: async () => undefined };
  }
  // Not through the hooks' per-file cache: keeping every file's entries and terms on a miss made
  // this first search some 2 × slower (bench/mcp-bench.mjs), for a saving the hooks reap anyway.
  const injection = await prepareSessionInjection(options);
  return {
    ranking: searchesEverything(injection) ? (injection.ranking ?? null) : null,
    warnings: injection.warnings,
    from: "files",
    save: async () => {
      // A cache that cannot be written (a read-only home) only costs the next reader time.
      if (fingerprint.memory && fingerprint.settled) await writeCachedInjection(path, fingerprint.value, injection).catch(() => undefined);
    },
  };
}

// The hooks' candidates are a search's of every scope when they hold the global store's entries
// too, and are kept (something ranks by relevance).
function searchesEverything(injection: SessionInjection): boolean {
  const { config } = injection;
  return config.injectionEnabled && config.globalEnabled && (config.injectionRanking !== "original" || config.promptRecall);
}
