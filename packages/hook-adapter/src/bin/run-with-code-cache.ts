import { join } from "node:path";
import { codeCacheFile, resolveGlobalStoreDir, storeCacheDir } from "@iflow-memory/store";
import { requireWithCodeCacheFile } from "../code-cache.js";

/**
 * Runs a hook's bundle (a file beside this one) as `require` would, with V8's code cache kept in
 * the global store's cache folder (`requireWithCodeCacheFile`): a session start then
 * deserializes the bundle's compiled code instead of parsing and compiling it.
 *
 * @example
 * runWithCodeCache("session-start-run.cjs"); // from session-start.cjs
 */
export function runWithCodeCache(bundle: string): void {
  runBundle(bundle, module);
}

/**
 * `require` of a bundle beside this one, with V8's code cache as `runWithCodeCache`: its exports.
 * For the preparation bundle, loaded at a session start after an edit (`eager`: its cache holds
 * every function compiled, see `requireWithCodeCacheFile`).
 *
 * @example
 * (requireWithCodeCache("session-start-prepare.cjs", { eager: true }) as typeof import("@iflow-memory/store")).prepareSessionInjection(sources);
 */
export function requireWithCodeCache(bundle: string, options: { eager?: boolean } = {}): unknown {
  const loaded = { exports: {} as unknown };
  runBundle(bundle, loaded, options);
  return loaded.exports;
}

function runBundle(bundle: string, target: { exports: unknown }, options: { eager?: boolean } = {}): void {
  const path = join(__dirname, bundle);
  let cacheFile: string | null = null;
  try {
    cacheFile = codeCacheFile(storeCacheDir(resolveGlobalStoreDir({ env: process.env })), path);
  } catch {
    // No home folder to find the store in: no cache, and the hook says what it can.
  }
  requireWithCodeCacheFile(path, cacheFile, require, target, options);
}
