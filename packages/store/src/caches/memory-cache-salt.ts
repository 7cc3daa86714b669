declare const __IFLOW_MEMORY_VERSION__: string;
declare const __IFLOW_MEMORY_CACHE_CODE__: string;

/**
 * The layout of the store's cached injection and ranking (`writeCachedInjection`): raised when
 * what they hold, or how they hold it, changes, so that no reader takes another layout for its own.
 */
export const MEMORY_CACHE_FORMAT = 5;

/**
 * The salt of `injectionFingerprint` for the store's cached injection, the same in every reader of
 * it — the hooks, the MCP server, the viewer — so that each reuses what another wrote: the tool's
 * version, the cache's layout, and a stamp of the code that computes what is cached (the parser's,
 * the ranker's and the store's sources, taken when the store is built), so that a new build of
 * changed code at the same version does not read what the old one cached. (The hook once salted
 * with its own bundle's size and time, which no other reader can know.)
 *
 * @example
 * injectionFingerprint({ projectRoot, globalStoreDir, salt: MEMORY_CACHE_SALT });
 */
export const MEMORY_CACHE_SALT = [
  typeof __IFLOW_MEMORY_VERSION__ === "string" ? __IFLOW_MEMORY_VERSION__ : "0.0.0-dev",
  `format ${MEMORY_CACHE_FORMAT}`,
  typeof __IFLOW_MEMORY_CACHE_CODE__ === "string" ? __IFLOW_MEMORY_CACHE_CODE__ : "unbuilt",
].join("\t");
