import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { Script } from "node:vm";
import { CODE_CACHE_MAGIC as MAGIC, codeCacheKey } from "@iflow-memory/store";

// A code cache file: its first line (MAGIC), then a line of JSON (what the code was compiled
// from, the length of what follows, the file's own modification time), then V8's data.

/**
 * `require` of the CommonJS file at `path`, with V8's code cache kept in `cacheFile`: the process
 * then deserializes the file's compiled code instead of parsing and compiling it (some
 * milliseconds of a hook or a command that answers in a few dozen). The cache is keyed by the
 * node version and the file's path and identity (size, times, inode: `codeCacheKey`), in a file
 * per install (`codeCacheFile`). V8 checks only the header of its data, and damaged data would
 * crash node, so the file is checked before V8 sees it: written whole under another name and
 * renamed, its modification time set to a random past second that its header records — any
 * later write to it (garbage, a truncation) sets that time to now. (A
 * checksum of the data, computed in a process this young, cost as much as the cache saved.) A
 * cache that is missing, stale, damaged or rejected by V8 is not used, and is written again (mode
 * 0600; its folder made, not the folder above) as the process exits, with what that run compiled.
 * Whatever goes wrong with the cache, the file runs; with `cacheFile` null, it is plainly required.
 * `requireFrom` is the `require` the file gets (its builtins resolve through it).
 *
 * With `eager`, the cache holds every function of the file compiled, whatever the run that writes
 * it called: for a file whose runs call different parts of it (the preparation a session start
 * after an edit loads; `inject`), where a function that the writing run never called would
 * otherwise be compiled at every later call of it — in `inject` after an edit, the keeping of the
 * edited file's entries, some 0.3 × `node -e 0` (BENCHMARKS.md). A file loaded at every start (a
 * hook's own) keeps what its run compiled: the larger cache would cost every start its reading.
 * `writeCache`, asked as the process exits, may leave a missing cache to another process that
 * loads the file (false): the one `inject` starts to keep what it read, which writes it there.
 *
 * @example
 * const bundle = join(__dirname, "inject.cjs");
 * requireWithCodeCacheFile(bundle, codeCacheFile(storeCacheDir(home), bundle), require, undefined, { eager: true });
 */
export function requireWithCodeCacheFile(
  path: string,
  cacheFile: string | null,
  requireFrom: (id: string) => unknown,
  target: { exports: unknown } = { exports: {} },
  options: { eager?: boolean; writeCache?: () => boolean } = {},
): unknown {
  let loaded: { source: string; key: string } | null = null;
  try {
    loaded = cacheFile === null ? null : readBundle(path);
  } catch {
    // Unreadable here: require says why, as it would have without a cache.
  }
  if (loaded === null || cacheFile === null) {
    target.exports = requireFrom(path) as unknown;
    return target.exports;
  }
  const { source, key } = loaded;
  const cachedData = readCodeCache(cacheFile, key);
  // The wrapper node's CommonJS loader puts around a module; the file's first line may be a #! line.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.startsWith("#!") ? source.slice(source.indexOf("\n")) : source}\n})`;
  // vm through the caller's require, when a file is run this way at all: a command's --version never loads it.
  const { Script: ScriptClass } = requireFrom("node:vm") as typeof import("node:vm");
  const script = new ScriptClass(wrapped, { filename: path, ...(cachedData === null ? {} : { cachedData }) });
  if (cachedData === null || script.cachedDataRejected === true) {
    // At exit, so that the functions this run compiled (lazily, as they were first called) are in it.
    process.once("exit", () => options.writeCache?.() !== false && writeCodeCache(cacheFile, key, options.eager === true ? () => eagerCachedData(wrapped, path, requireFrom) : () => script.createCachedData()));
  }
  (script.runInThisContext() as (...args: unknown[]) => void).call(target.exports, target.exports, requireFrom, target, path, dirname(path));
  return target.exports;
}

// V8's data for the file's code with every function compiled: the code compiled again (as the
// process exits, once per version of the file) with V8's lazy compilation off — and its cache of
// compiled scripts, which would give back the code compiled lazily as the file was loaded — both
// on again before the data is made, so that the data is checked against the flags every run has.
function eagerCachedData(wrapped: string, path: string, requireFrom: (id: string) => unknown): Buffer {
  const { setFlagsFromString } = requireFrom("node:v8") as typeof import("node:v8");
  const { Script: ScriptClass } = requireFrom("node:vm") as typeof import("node:vm");
  setFlagsFromString("--no-lazy --no-compilation-cache");
  let script: Script;
  try {
    script = new ScriptClass(wrapped, { filename: path });
  } finally {
    setFlagsFromString("--lazy --compilation-cache");
  }
  return script.createCachedData();
}

/** The bundle's text and what identifies this version of it, read from one open file (the file may be replaced meanwhile). */
function readBundle(path: string): { source: string; key: string } {
  const descriptor = openSync(path, "r");
  try {
    const info = fstatSync(descriptor, { bigint: true });
    const source = readFileSync(descriptor, "utf8");
    return { source, key: codeCacheKey(path, `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}:${info.dev}`) };
  } finally {
    closeSync(descriptor);
  }
}

/** V8's data for `key`, or null when there is none, it is for another key, or the file was changed since it was written. */
function readCodeCache(path: string, key: string): Buffer | null {
  let bytes: Buffer;
  let modified: number;
  try {
    const descriptor = openSync(path, "r");
    try {
      modified = fstatSync(descriptor).mtimeMs;
      bytes = readFileSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return null;
  }
  if (bytes.toString("latin1", 0, MAGIC.length) !== MAGIC) return null;
  const newline = bytes.indexOf(10, MAGIC.length);
  if (newline < 0) return null;
  let header: { key?: unknown; length?: unknown; modified?: unknown };
  try {
    header = JSON.parse(bytes.toString("utf8", MAGIC.length, newline)) as typeof header;
  } catch {
    return null;
  }
  const data = bytes.subarray(newline + 1);
  if (header.key !== key || header.length !== data.length || typeof header.modified !== "number" || header.modified * 1000 !== modified) return null;
  return data;
}

function writeCodeCache(path: string, key: string, cachedData: () => Buffer): void {
  const temporary = `${path}.${process.pid.toString(16)}${Date.now().toString(16)}.tmp`;
  try {
    const data = cachedData();
    // An even second between 2000 and 2017: whole seconds survive file systems that keep no finer
    // times (FAT keeps even ones), and no write made now can set it.
    const modified = 946_684_800 + 2 * Math.floor(Math.random() * 2 ** 28);
    const header = Buffer.from(`${MAGIC}${JSON.stringify({ key, length: data.length, modified })}\n`, "utf8");
    // The cache folder is made when missing, but not the global store itself: the cache is no
    // reason to make one.
    let descriptor: number;
    try {
      descriptor = openSync(temporary, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      mkdirSync(dirname(path), { mode: 0o700 });
      descriptor = openSync(temporary, "wx", 0o600);
    }
    try {
      for (const part of [header, data]) for (let written = 0; written < part.length; ) written += writeSync(descriptor, part, written);
    } finally {
      closeSync(descriptor);
    }
    utimesSync(temporary, modified, modified);
    renameSync(temporary, path);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // never made
    }
  }
}
