import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { CATEGORIES } from "@iflow-memory/parser";
import type { SessionInjection } from "../prepare-session-injection.js";
import type { SessionPlan } from "../relevance/plan-session-injection.js";
import { SETTLE_MS } from "../settle-ms.js";
import { configPath, isMemoryConfig } from "../read-config.js";
import { FEEDBACK_FILE } from "../read-feedback.js";
import { knowledgeBankDir } from "../read-knowledge-bank.js";
import { processAlive } from "../process-alive.js";
import { readTextFileSync } from "../read-text-file.js";
import { shortHash } from "../short-hash.js";
import { asciiJson } from "../ascii-json.js";
import { writeFileAtomically } from "../write-file-atomically.js";
import { entryFileCachePath, type EntryFileCache } from "./entry-file-cache.js";
import { MEMORY_CACHE_SALT } from "./memory-cache-salt.js";
import { pruneStoreCache } from "./prune-store-cache.js";
import { decodeRankingCacheHeader, rankingCachePieces, type RankingData } from "./ranking-cache-file.js";

export interface InjectionFingerprint {
  value: string;
  /** The start of `value` that says what the injection is made for and how: the salt, the two folders and the config's state (`readStaleInjection`). */
  settings: string;
  /**
   * False when a file changed within the last `SETTLE_MS`: a second write in the same clock tick
   * with the same size would not change the fingerprint, so such a result is not cached (git's
   * "racily clean" rule).
   */
  settled: boolean;
  /** The files' total size: how much a recomputation has to read. */
  bytes: number;
  /** Whether any memory file (the knowledge bank's or the global store's) is there: without one, there is nothing to cache. */
  memory: boolean;
  /** Whether the project has a config file: without one, its settings are the defaults (`DEFAULT_CONFIG`). */
  configFile: boolean;
  /**
   * `value` without the state of the feedback file: what the candidates and their index depend on
   * (a vote moves rankings and plans, not them), so that a reader may keep those across a vote.
   */
  withoutFeedback: string;
}

/**
 * The state of every file a session injection is computed from — the project's config and
 * knowledge bank, the global store's three files and its feedback — as one string. Any write to any of them
 * (content, rename, permissions) changes its size, modification or change time, or inode, and
 * so the fingerprint. `salt` carries what else the result depends on (the tool's version).
 *
 * @example
 * injectionFingerprint({ projectRoot: "/work/webshop", globalStoreDir, salt: "0.1.0" });
 * // { value: "0.1.0\n/work/webshop\n…", settled: true, bytes: 92114, memory: true, configFile: false, withoutFeedback: "0.1.0\n/work/webshop\n…" }
 */
export function injectionFingerprint(options: { projectRoot: string; globalStoreDir: string; salt: string; now?: number }): InjectionFingerprint {
  const paths = [
    configPath(options.projectRoot),
    ...memoryFiles(options.projectRoot, options.globalStoreDir),
    // Votes change the order, so a cached plan must not outlive one.
    join(options.globalStoreDir, FEEDBACK_FILE),
  ];
  const settledBefore = BigInt(Math.floor((options.now ?? Date.now()) - SETTLE_MS)) * 1_000_000n;
  let settled = true;
  let bytes = 0;
  let memory = false;
  const states = paths.map((path, at) => {
    try {
      // A missing file (the usual config) is not an exception: building one costs more than the stat.
      const info = statSync(path, { bigint: true, throwIfNoEntry: false });
      if (info === undefined) return `${path}\tENOENT`;
      if (at >= 1 && at <= 2 * CATEGORIES.length) memory = true;
      if (info.mtimeNs > settledBefore || info.ctimeNs > settledBefore) settled = false;
      bytes += Number(info.size);
      return `${path}\t${info.isFile() ? "f" : "o"}${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
    } catch (error) {
      return `${path}\t${(error as NodeJS.ErrnoException).code ?? "error"}`;
    }
  });
  const files = [options.salt, options.projectRoot, options.globalStoreDir, ...states.slice(0, -1)].join("\n");
  return {
    value: `${files}\n${states.at(-1)!}`,
    settings: [options.salt, options.projectRoot, options.globalStoreDir, states[0]].join("\n"),
    settled,
    bytes,
    memory,
    configFile: !states[0]!.endsWith("\tENOENT"),
    withoutFeedback: files,
  };
}

/**
 * The one file whose state differs between two values of `injectionFingerprint` (a line a file,
 * "path<tab>state"), a regular file in both: the file a saved output may have grown by. Null
 * when anything else differs, or nothing.
 *
 * @example
 * fingerprintChangedFile(saved.key, injectionFingerprint(options).value); // "/work/webshop/docs/knowledge-bank/heuristics.md"
 */
export function fingerprintChangedFile(before: string, after: string): string | null {
  const old = before.split("\n");
  const now = after.split("\n");
  if (old.length !== now.length) return null;
  let changed: number | null = null;
  for (let at = 0; at < now.length; at++) {
    if (old[at] === now[at]) continue;
    if (changed !== null) return null;
    changed = at;
  }
  if (changed === null) return null;
  const [was, is] = [old[changed]!, now[changed]!];
  const tab = is.lastIndexOf("\t");
  if (tab < 0 || was.slice(0, was.lastIndexOf("\t") + 1) !== is.slice(0, tab + 1)) return null;
  return is.startsWith("f", tab + 1) && was.startsWith("f", tab + 1) ? is.slice(0, tab) : null;
}

/**
 * The global store's folder of caches: what can be worked out again from other files (injections,
 * git's answers, sessions' ledgers), never the user's own data.
 *
 * @example
 * storeCacheDir("/home/ada/.claude/iflow/memory"); // "/home/ada/.claude/iflow/memory/.cache"
 */
export function storeCacheDir(globalStoreDir: string): string {
  return join(globalStoreDir, ".cache");
}

/**
 * The cache of the user's store at `globalStoreDir` (its `.cache` folder), salted as every reader
 * of the store's caches is (`MEMORY_CACHE_SALT`).
 *
 * @example
 * await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: entryFileCache(globalStoreDir) });
 */
export function entryFileCache(globalStoreDir: string): EntryFileCache {
  return { dir: storeCacheDir(globalStoreDir), salt: MEMORY_CACHE_SALT };
}

/**
 * Where a project's cached injection lives: in the global store, one file per project root and
 * build (`MEMORY_CACHE_SALT`), so that two installs of different builds sharing the store (the
 * plugin's hooks and `setup claude`'s, both run at every start) each keep theirs warm instead of
 * working it out again after the other's every start. (A collision of names costs a recomputation:
 * the fingerprint holds the full path and the salt.)
 */
export function injectionCachePath(globalStoreDir: string, projectRoot: string): string {
  return join(storeCacheDir(globalStoreDir), `injection-${shortHash(`${projectRoot}\0${MEMORY_CACHE_SALT}`)}.json`);
}

/**
 * The cached injection when its fingerprint is `fingerprint`, else null (missing, stale or
 * unreadable: the caller recomputes). Read in the calling thread (a warm session start waits for
 * nothing), through `readTextFileSync`: whatever is put in its place, it never blocks on it.
 *
 * @example
 * readCachedInjection(injectionCachePath(store, root), fingerprint) ?? (await prepareSessionInjection(…));
 */
export function readCachedInjection(path: string, fingerprint: string): SessionInjection | null {
  const cached = readInjectionFile(path);
  return cached?.fingerprint === fingerprint ? cached.injection : null;
}

/**
 * The cached injection of `fingerprint`, read once: the one made from the files as they are, or,
 * with `earlier`, one made for the same project, global store, config and build before the
 * memory files (or votes) last changed — with the fingerprint it was made with, to read its
 * ranking and plan (`stale` says which). For memory files so large that working them out anew
 * takes longer than a session start may wait: the session gets the memory as it was before the
 * change while the new injection is worked out for the next. Never across a change of the
 * config, which may have turned injection off.
 *
 * @example
 * const kept = readCachedInjectionOrEarlier(path, fingerprint, { earlier: bytes > IN_PROCESS_MAX_BYTES });
 * kept?.stale; // true: made before the last change
 */
export function readCachedInjectionOrEarlier(
  path: string,
  fingerprint: Pick<InjectionFingerprint, "value" | "settings">,
  options: { earlier: boolean },
): { injection: SessionInjection; fingerprint: string; stale: boolean } | null {
  const cached = readInjectionFile(path);
  if (cached === null) return null;
  if (cached.fingerprint === fingerprint.value) return { ...cached, stale: false };
  return options.earlier && cached.fingerprint.startsWith(`${fingerprint.settings}\n`) ? { ...cached, stale: true } : null;
}

// The file's first line is the injection without today's plan, its second today's plan
// (`writeCachedInjection`). A start that ranks by relevance seldom reads today's plan — only when
// its signals give nothing to rank by — so that line is parsed when first read: most of the file,
// and some 50 KB of young objects that tipped a warm start into a garbage collection. A start in
// today's order reads it at once, as one that found it damaged has no cache.
function readInjectionFile(path: string): { injection: SessionInjection; fingerprint: string } | null {
  const file = readTextFileSync(path);
  if (!("text" in file)) return null;
  const { text } = file;
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  try {
    const cached = JSON.parse(text.slice(0, newline)) as { fingerprint?: unknown; injection?: Omit<SessionInjection, "plan"> };
    const head = cached.injection;
    if (typeof cached.fingerprint !== "string" || !isInjectionHead(head)) return null;
    const planText = text.slice(newline + 1);
    if (head.config.injectionRanking === "original") {
      const plan = parsedPlan(planText);
      return plan === null ? null : { injection: { ...head, plan }, fingerprint: cached.fingerprint };
    }
    let plan: SessionInjection["plan"] | null = null;
    const injection = Object.defineProperty(head, "plan", {
      enumerable: true,
      configurable: true,
      get() {
        // Damaged where nothing checked it: the start fails open and forgets the cache (the next works it out).
        plan ??= parsedPlan(planText) ?? failDamagedPlan(path);
        return plan;
      },
    }) as SessionInjection;
    return { injection, fingerprint: cached.fingerprint };
  } catch {
    return null;
  }
}

// What a start reads of a cached injection, of the shape it reads it in: a file that holds
// anything else (damaged, or another build's) is no cache, and the injection is worked out anew.
function isInjectionHead(value: Omit<SessionInjection, "plan"> | undefined): value is Omit<SessionInjection, "plan"> {
  return value !== undefined && value !== null && isMemoryConfig(value.config) && Array.isArray(value.configWarnings) && Array.isArray(value.warnings);
}

function parsedPlan(text: string): SessionInjection["plan"] | null {
  try {
    const plan = JSON.parse(text) as SessionInjection["plan"] | null;
    return typeof plan?.block === "string" && Array.isArray(plan.entries) ? plan : null;
  } catch {
    return null;
  }
}

function failDamagedPlan(path: string): never {
  throw new Error(`the cached injection ${path} holds a damaged plan`);
}

/**
 * Removes what is cached of a project's injection — the injection, its ranking and last plan,
 * and the kept entries of its memory files and the global store's — so that the next start works
 * it out from the files: for a start that failed where it should not have (a cache damaged in a
 * way no read checks), which would otherwise fail again until a memory file changes. Caches only,
 * never a user's file; what cannot be removed is left.
 *
 * @example
 * forgetCachedInjection(globalStoreDir, projectRoot);
 */
export function forgetCachedInjection(globalStoreDir: string, projectRoot: string): void {
  const path = injectionCachePath(globalStoreDir, projectRoot);
  const fileCache = entryFileCache(globalStoreDir);
  for (const cached of [path, rankingCachePath(path), planCachePath(path), ...memoryFiles(projectRoot, globalStoreDir).map((file) => entryFileCachePath(fileCache, file))]) {
    try {
      unlinkSync(cached);
    } catch {
      // missing already, or not ours to remove: the next start reads it as it is
    }
  }
}

// The memory files an injection is made from: the knowledge bank's three, then the global store's.
function memoryFiles(projectRoot: string, globalStoreDir: string): string[] {
  return [knowledgeBankDir(projectRoot), globalStoreDir].flatMap((directory) => CATEGORIES.map((category) => join(directory, `${category}.md`)));
}

/** Where the ranking half of a cached injection (candidates and index) lives: beside it. */
export function rankingCachePath(path: string): string {
  return path.replace(/\.json$/, "") + ".ranking.json";
}

/** The ranking cache is ours, not the user's: the size limit of user files does not bound it (50,000 entries take some 60 MB). */
const RANKING_CACHE_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * The cached candidates and index when their fingerprint is `fingerprint`, else null. Only the
 * file's first line (the index's terms) and the columns that end it (what ranking reads of every
 * entry) are read; an entry's own line is read and parsed when its text is first asked for
 * (`decodeRankingCacheHeader`), from the file as it was opened (a newer one renamed into its
 * place does not mix in). The file stays open until no entry of it is left.
 *
 * @example
 * readCachedRanking(injectionCachePath(store, root), fingerprint)?.index;
 */
export function readCachedRanking(path: string, fingerprint: string): RankingData | null {
  let descriptor: number;
  try {
    // Non-blocking: a FIFO put in its place is not waited on (and is no regular file: null).
    descriptor = openSync(rankingCachePath(path), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  let ranking: RankingData | null = null;
  try {
    const info = fstatSync(descriptor);
    if (info.isFile() && info.size <= RANKING_CACHE_MAX_BYTES) {
      const header = readFirstLine(descriptor);
      if (header !== null) {
        const file = { descriptor };
        const bodyStart = header.bytes + 1;
        ranking = decodeRankingCacheHeader(header.text, fingerprint, info.size - bodyStart, (start, end) => {
          const bytes = Buffer.allocUnsafe(end - start);
          for (let read = 0; read < bytes.length; ) {
            const count = readSync(file.descriptor, bytes, read, bytes.length - read, bodyStart + start + read);
            if (count === 0) throw new Error(`${rankingCachePath(path)} was cut short after it was opened`);
            read += count;
          }
          return bytes;
        });
        if (ranking !== null) openFiles.register(file, descriptor);
      }
    }
  } catch {
    ranking = null;
  }
  if (ranking === null) closeSync(descriptor);
  return ranking;
}

// A ranking cache stays open while entries of it may still read their lines: closed once none
// is left (the entries' readers hold `file`).
const openFiles = new FinalizationRegistry<number>((descriptor) => {
  try {
    closeSync(descriptor);
  } catch {
    // already closed
  }
});

/** The file's first line as text and its length in bytes, or null when it has none. */
function readFirstLine(descriptor: number): { text: string; bytes: number } | null {
  let buffer = Buffer.allocUnsafe(256 * 1024);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 4);
      buffer.copy(larger);
      buffer = larger;
    }
    const count = readSync(descriptor, buffer, length, buffer.length - length, length);
    if (count === 0) return null;
    const newline = buffer.subarray(0, length + count).indexOf(10, length);
    length += count;
    if (newline >= 0) return { text: buffer.toString("utf8", 0, newline), bytes: newline };
  }
}

/**
 * Saves an injection with the fingerprint of the files it came from (atomically, mode 0600:
 * it holds memory text): what relevance ranks in a file of its own (`rankingCachePath`), written
 * first, and the rest — small, read at every session start — in `path`. Then, once a day at
 * most, removes the caches no session has used for a month (`pruneStoreCache`).
 *
 * @example
 * await writeCachedInjection(injectionCachePath(store, root), fingerprint, injection);
 */
export async function writeCachedInjection(path: string, fingerprint: string, injection: SessionInjection): Promise<void> {
  const { ranking, plan, ...rest } = injection;
  if (ranking !== undefined) await writeFileAtomically(rankingCachePath(path), rankingCachePieces(fingerprint, ranking), { durable: false });
  // Today's plan on a line of its own, parsed when first read (`readInjectionFile`). In ASCII
  // (`asciiJson`), as the last plan and the ranking's header: read at every start, decoded at their fastest.
  await writeFileAtomically(path, `${asciiJson({ fingerprint, injection: rest })}\n${asciiJson(plan)}`, { durable: false });
  // Where caches are made, the caches of projects and files long gone are removed (once a day at most).
  pruneStoreCache(dirname(path));
}

/** Where the last relevance plan made from a cached injection is kept: beside it. */
export function planCachePath(path: string): string {
  return path.replace(/\.json$/, "") + ".plan.json";
}

/**
 * The last session-start plan saved beside a cached injection whose fingerprint is
 * `fingerprint`, and the query (`JSON.stringify` of the relevance query) it was made for; null
 * when there is none for these files. `planSessionStart` is a pure function of the files and the
 * query, so a start whose files and signals are those of the last one may take its plan as it is.
 *
 * @example
 * const last = readCachedPlan(injectionCachePath(store, root), fingerprint);
 * const plan = last?.query === JSON.stringify(query) ? last.plan : planSessionStart(injection, query);
 */
export function readCachedPlan(path: string, fingerprint: string): { query: string; plan: SessionPlan } | null {
  const file = readTextFileSync(planCachePath(path));
  if (!("text" in file)) return null;
  try {
    const cached = JSON.parse(file.text) as { fingerprint?: unknown; query?: unknown; plan?: SessionPlan };
    if (cached.fingerprint !== fingerprint || typeof cached.query !== "string" || typeof cached.plan?.block !== "string" || !Array.isArray(cached.plan.entries)) return null;
    return { query: cached.query, plan: cached.plan };
  } catch {
    return null;
  }
}

/** Saves a session-start plan for `readCachedPlan` (atomically, mode 0600). */
export async function writeCachedPlan(path: string, fingerprint: string, query: string, plan: SessionPlan): Promise<void> {
  await writeFileAtomically(planCachePath(path), asciiJson({ fingerprint, query, plan }), { durable: false });
}

/** A claim older than this is taken to belong to a refresh that died (killed, out of memory). */
export const REFRESH_CLAIM_MS = 10 * 60_000;

/** What `claimCacheRefresh` found: the claim is now this caller's, another live one holds it, or no claim can be made. */
export type RefreshClaim = "claimed" | "taken" | "impossible";

/**
 * Claims the right to recompute a cached injection away from any session start (a background
 * process). The claim is a marker file beside the cache, made exclusively, so that sessions
 * starting together start one refresh, not one each; it names the process that holds it (this
 * one, until `handOverCacheRefresh` names the refresh it started), and `releaseCacheRefresh` ends
 * it. A claim whose process has ended on this machine (a session start killed before it could
 * start its refresh) is taken over at once; any other, once older than `REFRESH_CLAIM_MS`.
 * "impossible" when the cache folder cannot be made or written (a file in its place, a read-only
 * home).
 *
 * @example
 * const path = injectionCachePath(store, root);
 * if (claimCacheRefresh(path) === "claimed") handOverCacheRefresh(path, startRefresh()); // which ends with releaseCacheRefresh
 */
export function claimCacheRefresh(path: string, now = Date.now()): RefreshClaim {
  const claim = `${path}.refreshing`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    for (let attempt = 0; attempt < 2; attempt++) {
      let descriptor: number;
      try {
        descriptor = openSync(claim, "wx", 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") return "impossible";
        if (claimHeld(claim, now)) return "taken";
        releaseCacheRefresh(path);
        continue;
      }
      let written = false;
      try {
        writeSync(descriptor, claimText(process.pid));
        written = true;
      } finally {
        closeSync(descriptor);
        // A claim that names no one would hold until it is old: none is left instead.
        if (!written) releaseCacheRefresh(path);
      }
      return "claimed";
    }
    return "taken";
  } catch {
    return "impossible";
  }
}

/**
 * Names `pid` (the refresh a session start started, which outlives it) as the holder of the
 * claim `claimCacheRefresh` made, so that the claim outlives the start that made it. Never throws:
 * a claim left naming the start is taken over once the start has ended.
 *
 * @example
 * handOverCacheRefresh(injectionCachePath(store, root), child.pid);
 */
export function handOverCacheRefresh(path: string, pid: number): void {
  // Replaced whole (renamed over it): a reader sees the start's name or the refresh's, never none.
  writeFileAtomically(`${path}.refreshing`, claimText(pid), { durable: false }).catch(() => undefined);
}

// A claim's text: the process that holds it and its machine (whose process table tells whether it runs).
function claimText(pid: number): string {
  return `${JSON.stringify({ pid, host: hostname() })}\n`;
}

// Whether the claim at `claim` still holds: it is there, younger than REFRESH_CLAIM_MS, and not
// named for a process of this machine that has ended (a claim of another machine, or one that
// names nothing readable — an earlier build's, or one being written — holds until it is that old).
function claimHeld(claim: string, now: number): boolean {
  const info = statSync(claim, { throwIfNoEntry: false });
  if (info === undefined || now - info.mtimeMs >= REFRESH_CLAIM_MS) return false;
  const file = readTextFileSync(claim);
  // Released since it was found: no longer held. Unreadable: only its age can tell.
  if ("missing" in file) return false;
  if (!("text" in file)) return true;
  try {
    const holder = JSON.parse(file.text) as { pid?: unknown; host?: unknown };
    return !(Number.isSafeInteger(holder.pid) && (holder.pid as number) > 0 && holder.host === hostname() && !processAlive(holder.pid as number));
  } catch {
    return true;
  }
}

/** Ends a claim made by `claimCacheRefresh` (nothing when there is none). */
export function releaseCacheRefresh(path: string): void {
  try {
    unlinkSync(`${path}.refreshing`);
  } catch {
    // already gone
  }
}
