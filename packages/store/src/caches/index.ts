export { CODE_CACHE_MAGIC, codeCacheFile, codeCacheKey, type CodeCacheNode } from "./code-cache-file.js";
export type { EntryFileCache } from "./entry-file-cache.js";
export { CACHE_MAX_AGE_MS, pruneStoreCache } from "./prune-store-cache.js";
export { decodeRankingCache, encodeRankingCache } from "./ranking-cache-file.js";
export type { RankingData } from "./ranking-cache-file.js";
export {
  claimCacheRefresh,
  entryFileCache,
  forgetCachedInjection,
  handOverCacheRefresh,
  injectionCachePath,
  fingerprintChangedFile,
  injectionFingerprint,
  planCachePath,
  rankingCachePath,
  readCachedInjection,
  readCachedInjectionOrEarlier,
  readCachedPlan,
  readCachedRanking,
  REFRESH_CLAIM_MS,
  releaseCacheRefresh,
  storeCacheDir,
  writeCachedInjection,
  writeCachedPlan,
} from "./injection-cache.js";
export type { InjectionFingerprint, RefreshClaim } from "./injection-cache.js";
export { MEMORY_CACHE_FORMAT, MEMORY_CACHE_SALT } from "./memory-cache-salt.js";
export { removeStoreCache } from "./remove-store-cache.js";
