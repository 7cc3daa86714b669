import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { resolveGlobalStoreDir, storeCacheDir } from "@iflow-memory/store";

// The first line of a code cache file, then a line of JSON (what the code was compiled from, the
// length of what follows, the file's own modification time), then V8's data.
const MAGIC = "iflow-memory code cache 1\n";

/**
 * Runs a hook's bundle (a file beside this one) as `require` would, with V8's code cache kept in
 * the global store's cache folder: a session start then deserializes the bundle's compiled code
 * instead of parsing and compiling it (some milliseconds of a hook that answers in a few dozen).
 * The cache is keyed by the node version and the bundle file's identity (size, times, inode).
 * V8 checks only the header of its data, and damaged data would crash node, so the file is
 * checked before V8 sees it: written whole under another name and renamed, its modification
 * time set to a random past second that its header records — any later write to it (garbage, a
 * truncation) sets that time to now. (A checksum of the data, computed in a process this young,
 * cost as much as the cache saved.) A cache that is missing, stale, damaged or rejected by V8 is
 * not used, and is written again (mode 0600) as the process exits, with what that run compiled.
 * Whatever goes wrong with the cache, the bundle runs.
 *
 * @example
 * runWithCodeCache("session-start-run.cjs"); // from session-start.cjs
 */
export function runWithCodeCache(bundle: string): void {
  runBundle(bundle, module);
}

/**
 * `require` of a bundle beside this one, with V8's code cache as `runWithCodeCache`: its exports.
 * For the preparation bundle, loaded at a session start after an edit.
 *
 * @example
 * (requireWithCodeCache("session-start-prepare.cjs") as typeof import("@iflow-memory/store")).prepareSessionInjection(sources);
 */
export function requireWithCodeCache(bundle: string): unknown {
  const loaded = { exports: {} as unknown };
  runBundle(bundle, loaded);
  return loaded.exports;
}

function runBundle(bundle: string, target: { exports: unknown }): void {
  const path = join(__dirname, bundle);
  let loaded: { source: string; key: string } | null = null;
  try {
    loaded = readBundle(path);
  } catch {
    // Unreadable here: require says why, as it would have without a cache.
  }
  if (loaded === null) {
    target.exports = require(path) as unknown;
    return;
  }
  const { source, key } = loaded;
  let cachePath: string | null = null;
  try {
    cachePath = join(storeCacheDir(resolveGlobalStoreDir({ env: process.env })), `code-${basename(bundle, ".cjs")}.bin`);
  } catch {
    // No home folder to find the store in: no cache, and the hook says what it can.
  }
  const cachedData = cachePath === null ? null : readCodeCache(cachePath, key);
  // The wrapper node's CommonJS loader puts around a module; the bundle's first line may be a #! line.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.startsWith("#!") ? source.slice(source.indexOf("\n")) : source}\n})`;
  const script = new Script(wrapped, { filename: path, ...(cachedData === null ? {} : { cachedData }) });
  if (cachePath !== null && (cachedData === null || script.cachedDataRejected === true)) {
    // At exit, so that the functions this run compiled (lazily, as they were first called) are in it.
    const cacheFile = cachePath;
    process.once("exit", () => writeCodeCache(cacheFile, key, script));
  }
  (script.runInThisContext() as (...args: unknown[]) => void).call(target.exports, target.exports, require, target, path, __dirname);
}

/** The bundle's text and what identifies this version of it, read from one open file (the file may be replaced meanwhile). */
function readBundle(path: string): { source: string; key: string } {
  const descriptor = openSync(path, "r");
  try {
    const info = fstatSync(descriptor, { bigint: true });
    const source = readFileSync(descriptor, "utf8");
    return { source, key: JSON.stringify([process.version, process.arch, basename(path), `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}:${info.dev}`]) };
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

function writeCodeCache(path: string, key: string, script: Script): void {
  const temporary = `${path}.${process.pid.toString(16)}${Date.now().toString(16)}.tmp`;
  try {
    const data = script.createCachedData();
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
