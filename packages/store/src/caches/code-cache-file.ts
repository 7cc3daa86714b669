import { closeSync, openSync, readSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * The first line of a file of V8's code cache (the hook adapter's `requireWithCodeCacheFile`);
 * then a line of JSON whose `key` (`codeCacheKey`) says what the code was compiled from; then
 * V8's data.
 */
export const CODE_CACHE_MAGIC = "iflow-memory code cache 1\n";

/**
 * What a code cache is valid for: this node (version, architecture) and the bundle at
 * `bundlePath` as it is now (`identity`: its size, times, inode). The pruning reads the path back
 * (`codeCacheBundle`).
 *
 * @example
 * codeCacheKey("/opt/iflow-memory/hooks/session-start-run.cjs", "61079:…:…:4194307:2049");
 */
export function codeCacheKey(bundlePath: string, identity: string): string {
  return JSON.stringify([process.version, process.arch, bundlePath, identity]);
}

/**
 * Where V8's code cache of the bundle at `bundlePath` is kept in a store's cache folder: a file
 * per bundle and per install of it (a tag of its path), so that two installs that share a store
 * (the plugin's hooks for Claude Code, the package's for Codex; the package's command and the
 * plugin's) each keep their own, instead of each finding the other's and compiling anew.
 *
 * @example
 * codeCacheFile("/home/ada/.claude/iflow/memory/.cache", "/opt/iflow-memory/hooks/session-start-run.cjs");
 * // "/home/ada/.claude/iflow/memory/.cache/code-session-start-run-3f2a91c0.bin"
 */
export function codeCacheFile(cacheDir: string, bundlePath: string): string {
  return join(cacheDir, `code-${basename(bundlePath, ".cjs")}-${pathTag(bundlePath)}.bin`);
}

// A short tag of a path: FNV-1a, 32 bits, in hex (a hook's start loads no crypto for it).
function pathTag(path: string): string {
  let hash = 0x811c9dc5;
  for (let at = 0; at < path.length; at++) hash = Math.imul(hash ^ path.charCodeAt(at), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/**
 * The path of the bundle whose code the cache file at `path` holds, as its key names it
 * (`codeCacheKey`); null when the file is not such a cache, or is damaged.
 *
 * @example
 * codeCacheBundle(codeCacheFile(cacheDir, bundle)); // bundle
 */
export function codeCacheBundle(path: string): string | null {
  const head = Buffer.alloc(4096);
  let length: number;
  const descriptor = openSync(path, "r");
  try {
    length = readSync(descriptor, head, 0, head.length, 0);
  } finally {
    closeSync(descriptor);
  }
  const end = head.subarray(0, length).indexOf(10, CODE_CACHE_MAGIC.length);
  if (head.toString("latin1", 0, CODE_CACHE_MAGIC.length) !== CODE_CACHE_MAGIC || end < 0) return null;
  try {
    const { key } = JSON.parse(head.toString("utf8", CODE_CACHE_MAGIC.length, end)) as { key?: unknown };
    const items = typeof key === "string" ? (JSON.parse(key) as unknown) : null;
    const bundle = Array.isArray(items) ? (items[2] as unknown) : null;
    return typeof bundle === "string" && bundle !== "" ? bundle : null;
  } catch {
    return null;
  }
}
