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
 * (`codeCacheOrigin`).
 *
 * @example
 * codeCacheKey("/opt/iflow-memory/hooks/session-start-run.cjs", "61079:…:…:4194307:2049");
 */
export function codeCacheKey(bundlePath: string, identity: string): string {
  return JSON.stringify([process.version, process.arch, bundlePath, identity]);
}

/** The node a code cache is for: V8's data is valid only for the node (version, architecture) that made it. */
export interface CodeCacheNode {
  version: string;
  arch: string;
}

/**
 * Where V8's code cache of the bundle at `bundlePath` is kept in a store's cache folder: a file
 * per bundle, per install of it and per node (a tag of its path and the node's version and
 * architecture), so that two installs that share a store (the plugin's hooks for Claude Code, the
 * package's for Codex; the package's command and the plugin's) each keep their own, instead of
 * each finding the other's and compiling anew — and so do two nodes that take turns on one store
 * (a project whose `.nvmrc` picks another node than the next one's): each would otherwise find the
 * other's cache, compile the bundle and write its own over it, at every start.
 *
 * @example
 * codeCacheFile("/home/ada/.claude/iflow/memory/.cache", "/opt/iflow-memory/hooks/session-start-run.cjs");
 * // "/home/ada/.claude/iflow/memory/.cache/code-session-start-run-3f2a91c0.bin"
 */
export function codeCacheFile(cacheDir: string, bundlePath: string, node: CodeCacheNode = { version: process.version, arch: process.arch }): string {
  return join(cacheDir, `code-${basename(bundlePath, ".cjs")}-${pathTag(`${bundlePath}\0${node.version}\0${node.arch}`)}.bin`);
}

// A short tag of a path: FNV-1a, 32 bits, in hex (a hook's start loads no crypto for it).
function pathTag(path: string): string {
  let hash = 0x811c9dc5;
  for (let at = 0; at < path.length; at++) hash = Math.imul(hash ^ path.charCodeAt(at), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/**
 * What the cache file at `path` holds V8's code of, as its key names it (`codeCacheKey`): the
 * bundle's path and the node that compiled it; null when the file is not such a cache, or is
 * damaged.
 *
 * @example
 * codeCacheOrigin(codeCacheFile(cacheDir, bundle)); // { bundle, node: { version: "v24.21.0", arch: "x64" } }
 */
export function codeCacheOrigin(path: string): { bundle: string; node: CodeCacheNode } | null {
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
    if (!Array.isArray(items)) return null;
    const [version, arch, bundle] = items as unknown[];
    return typeof bundle === "string" && bundle !== "" && typeof version === "string" && typeof arch === "string" ? { bundle, node: { version, arch } } : null;
  } catch {
    return null;
  }
}
