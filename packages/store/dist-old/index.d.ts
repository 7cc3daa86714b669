import { Entry, Lesson, LessonWarning, Category, Confidence } from '@iflow-memory/parser';
import { NumberedTerms, RelevanceQuery, InjectionIndex, InjectionPlan, AnyRelevanceIndex, EntryOrders, EntryFeedback, MemoryFetch, EffectivenessCheck, EffectivenessSummary, ProjectFacts, RankedEntry } from '@iflow-memory/ranker';

/** A problem that did not stop the read: a file skipped, a value replaced by its default. */
interface StoreWarning {
    path: string;
    message: string;
    line?: number;
}
/**
 * One line for a person: "PATH:LINE: message".
 *
 * @example
 * formatWarning({ path: ".claude/iflow-dev.local.md", line: 3, message: "…" });
 * // ".claude/iflow-dev.local.md:3: …"
 */
declare function formatWarning(warning: StoreWarning): string;

/** SessionStart sources Claude Code sends (a forked session may also report "fork"). */
declare const SESSION_EVENTS: readonly string[];
interface MemoryConfig {
    /** `memory_injection_enabled`: false suppresses all injection. */
    injectionEnabled: boolean;
    /** `memory_injection_limit`: entries; 0 none, -1 no limit. */
    injectionLimit: number;
    /** `memory_injection_max_chars`: hard cap on the memory block. */
    injectionMaxChars: number;
    /** `memory_injection_events`: SessionStart sources that inject. */
    injectionEvents: string[];
    /** `memory_global_enabled`: include the global store. */
    globalEnabled: boolean;
    /**
     * `memory_injection_ranking`: "relevance" puts what the session is about first, then the proven
     * core; "strict" only what the session is about; "original" is today's order.
     */
    injectionRanking: InjectionRanking;
    /** `memory_injection_index`: after the entries in full, a line (hash and title) for each of the next ones, while the budget allows. */
    injectionIndex: boolean;
    /** `memory_prompt_recall`: the prompt hook adds the entries relevant to each prompt. */
    promptRecall: boolean;
    /** `memory_prompt_recall_limit`: entries a prompt adds at most; 0 none. */
    promptRecallLimit: number;
}
/** How a session start chooses its entries. */
type InjectionRanking = "relevance" | "strict" | "original";
/**
 * The most characters a session-start block may have: Claude Code hands a hook's context longer
 * than about 10,000 characters to the model as a ~2 KB preview only (2.1: cut between 9,967 and
 * 10,341), so a larger `memory_injection_max_chars` is capped here, with a warning.
 */
declare const MAX_INJECTION_CHARS = 9500;
declare const DEFAULT_CONFIG: Readonly<MemoryConfig>;
/**
 * Whether `value` is a whole `MemoryConfig`: every setting there, of its type (what a config
 * kept in a cache file must be before it is trusted).
 *
 * @example
 * isMemoryConfig({ ...DEFAULT_CONFIG }); // true
 * isMemoryConfig({ ...DEFAULT_CONFIG, injectionEvents: "startup" }); // false
 */
declare function isMemoryConfig(value: unknown): value is MemoryConfig;
interface ConfigRead {
    config: MemoryConfig;
    /** The config file's path, whether or not it exists. */
    path: string;
    /** The settings the file gives a valid value (`[]` without a file): what a command with defaults of its own takes from it. */
    configured: Array<keyof MemoryConfig>;
    warnings: StoreWarning[];
}
/** The project's config file. */
declare function configPath(projectRoot: string): string;
/**
 * Reads the memory settings from the YAML frontmatter of `<project>/.claude/iflow-dev.local.md`.
 * A missing file means the defaults; a broken file or a bad value is a warning and the default,
 * never a throw. Keys of other iflow features in the same file are left alone.
 *
 * @example
 * const { config, warnings } = await readConfig("/work/webshop");
 * config.injectionLimit; // 20 unless the file says otherwise
 */
declare function readConfig(projectRoot: string): Promise<ConfigRead>;
/** The settings iflow-memory reads from the config file. */
declare const CONFIG_KEYS: readonly string[];
/**
 * The known setting an unknown key was probably meant to be: for a key of ours (starting
 * `memory`) the closest by edit distance, and for any other key one within a quarter of its
 * length in edits (a misspelling); null for a key of another iflow feature sharing the file.
 *
 * @example
 * closestConfigKey("memory_injection_limt"); // "memory_injection_limit"
 * closestConfigKey("workflow_mode"); // null
 */
declare function closestConfigKey(key: string): string | null;

/**
 * The nearest directory at or above `start` that holds `.git` or `docs/knowledge-bank`;
 * `start` itself when there is none.
 *
 * @example
 * await findProjectRoot("/work/webshop/src/cart"); // "/work/webshop"
 */
declare function findProjectRoot(start: string): Promise<string>;

/**
 * Where one memory file's entries are kept once read, and what makes them valid: `dir` is the
 * global store's `.cache` folder, `salt` what else the entries depend on (the tool's version and
 * build: a new parser reads the files anew).
 */
interface EntryFileCache {
    dir: string;
    salt: string;
    /** The clock that tells whether a file has settled (tests); `Date.now` by default. */
    now?: () => number;
}

interface EntriesRead {
    /** Entries of anti-patterns.md, patterns.md, heuristics.md, in that order. */
    entries: Entry[];
    warnings: StoreWarning[];
    /** With a cache: the terms kept with the entries (numbered in their file's vocabulary), by entry, for `buildRelevanceIndex`. */
    terms?: Map<Entry, NumberedTerms>;
}
interface ReadEntryFilesOptions {
    /** Replace every secret with `[REDACTED]`, with a warning naming `redact` as where to remove it from ("the store"). */
    redact?: string;
    /**
     * Keep each file's (redacted) entries in this cache, and take them from it while the file is
     * unchanged: a read after an edit parses only the file that changed. Only with `redact`: raw
     * entries (secrets included) are never written to a cache.
     */
    cache?: EntryFileCache;
    /** With `cache`: give the terms kept with the entries (`EntriesRead.terms`), for relevance's index. */
    terms?: boolean;
}

/**
 * Where the global store is: the `--global-store` flag, else `IFLOW_MEMORY_HOME`, else
 * `~/.claude/iflow/memory` (HOME from `env`, falling back to the OS's home directory).
 *
 * @example
 * resolveGlobalStoreDir({ env: { HOME: "/home/ada" } }); // "/home/ada/.claude/iflow/memory"
 */
declare function resolveGlobalStoreDir(options: {
    flag?: string | undefined;
    env: Record<string, string | undefined>;
}): string;
/**
 * Reads the global store's three category files; a store that does not exist yet is empty.
 * Secrets in any field of an entry are replaced by `[REDACTED]` (with a warning), as promotion would have.
 * With `cache`, each file's entries are kept there and taken from it while the file is unchanged.
 *
 * @example
 * const { entries } = await readGlobalStore(resolveGlobalStoreDir({ env: process.env }));
 */
declare function readGlobalStore(directory: string, options?: {
    cache?: EntryFileCache;
    terms?: boolean;
}): Promise<EntriesRead>;

interface KnowledgeBankRead extends EntriesRead {
    /** Other files in the knowledge-bank folder (constitution.md, …): never read as entries. */
    ignoredFiles: string[];
}
/** The knowledge bank's folder inside a project. */
declare function knowledgeBankDir(projectRoot: string): string;
/**
 * Reads a project's knowledge bank (`docs/knowledge-bank/{anti-patterns,patterns,heuristics}.md`).
 * No folder or no files: no entries and no warning. Secrets in any field of an entry are
 * replaced by `[REDACTED]` (with a warning) unless `raw` — for promotion, which must know them
 * to refuse with --strict, and `doctor`, which reports them. With `cache`, the redacted entries of
 * each file are kept there and taken from it while the file is unchanged (see `readEntryFiles`).
 *
 * @example
 * const { entries, warnings } = await readKnowledgeBank("/work/webshop");
 */
declare function readKnowledgeBank(projectRoot: string, options?: {
    raw?: boolean;
    cache?: EntryFileCache;
    terms?: boolean;
}): Promise<KnowledgeBankRead>;

interface InjectMemoryOptions {
    projectRoot: string;
    globalStoreDir: string;
    includeGlobal: boolean;
    /** Entries at most; -1 no limit, 0 none. */
    limit: number;
    /** Characters the block may take at most; null: no budget. */
    maxChars: number | null;
    /** What the session is about: only the entries relevant to it, over the relevance floor. Absent: today's order. */
    query?: RelevanceQuery;
    /** After the entries in full, an index of the next ones (`planInjection`'s `index`), as a session start gives it; needs `maxChars`. */
    index?: InjectionIndex;
    /** Write `.last-injection.json` when something is selected; null: don't. */
    tracking: {
        now: Date;
        event?: string | undefined;
    } | null;
    /** Keep each memory file's entries here and take them while the file is unchanged (see `readEntryFiles`). */
    cache?: EntryFileCache;
}
interface InjectMemoryResult {
    project: string;
    plan: InjectionPlan;
    warnings: StoreWarning[];
    ignoredFiles: string[];
}
/**
 * The read path end to end: read the knowledge bank and the global store, plan the injection,
 * and record it in the tracking file. A tracking write that fails is a warning; the plan is
 * returned all the same.
 *
 * @example
 * const { plan } = await injectMemory({ projectRoot, globalStoreDir, includeGlobal: true,
 *   limit: 20, maxChars: 9000, tracking: { now: new Date(), event: "startup" } });
 * plan.block; // "## Engineering Memory (from knowledge bank)\n\n…"
 */
declare function injectMemory(options: InjectMemoryOptions): Promise<InjectMemoryResult>;

interface MemorySources {
    local: Entry[];
    global: Entry[];
    warnings: StoreWarning[];
    /** Files in the knowledge-bank folder that are not entry files (reported with --verbose). */
    ignoredFiles: string[];
    /** With a cache: the terms kept with the entries, by entry, for `buildRelevanceIndex` (see `readEntryFiles`). */
    terms?: Map<Entry, NumberedTerms>;
}
/**
 * Everything the read path needs from disk: the project's knowledge bank and, unless
 * `includeGlobal` is false, the global store — read concurrently. With `cache` (the global store's
 * `.cache` and the build's salt), a file unchanged since it was last read is not parsed again.
 *
 * @example
 * const sources = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
 * planInjection({ ...sources, project: projectName(projectRoot), limit: 20, maxChars: null });
 */
declare function readMemorySources(options: {
    projectRoot: string;
    globalStoreDir: string;
    includeGlobal: boolean;
    cache?: EntryFileCache;
    /** With `cache`: give the terms kept with the entries, for relevance's index (`MemorySources.terms`). */
    terms?: boolean;
}): Promise<MemorySources>;

/** Files larger than this are skipped with a warning rather than read into memory. */
declare const MAX_FILE_BYTES: number;
/** A file's bytes, or that it is missing, or why it was skipped. */
type UserFileResult = {
    bytes: Uint8Array;
} | {
    missing: true;
} | {
    warning: StoreWarning;
};
interface UserFileOptions {
    /** The most bytes read; a larger file is skipped with a warning. Default `MAX_FILE_BYTES`. */
    maxBytes?: number;
}
/**
 * Reads a file that a user (or anyone who can write where it lives) controls, off the calling
 * thread: only a regular file (after following symbolic links), and never more than
 * `maxBytes`. A FIFO, a device, a socket or a directory is skipped with a warning naming what
 * it is, without waiting on it; a missing file is `{ missing: true }`; nothing throws. The
 * waits are libuv's, so a caller's deadline can end them: a file on a mount that stopped
 * answering holds one of libuv's threads, not the caller's (though no process can exit while
 * one of its threads waits on the kernel).
 *
 * @example
 * await readUserFile("docs/knowledge-bank/heuristics.md");
 * // { bytes: Uint8Array(…) }, or { warning: { path, message: "is a FIFO, not a file; skipped" } }
 */
declare function readUserFile(path: string, options?: UserFileOptions): Promise<UserFileResult>;
/**
 * `readUserFile` in the calling thread, for the few readers that cannot wait: the session-start
 * hook's warm path and the small state files read between two writes. The same checks and
 * warnings; a FIFO or a device never blocks it, but a mount that stopped answering does.
 *
 * @example
 * const file = readUserFileSync(join(globalStoreDir, ".cache", "injection-1a2b3c4d.json"));
 * if ("bytes" in file) file.bytes.byteLength; // 9120
 */
declare function readUserFileSync(path: string, options?: UserFileOptions): UserFileResult;

type TextFileResult = {
    text: string;
} | {
    missing: true;
} | {
    warning: StoreWarning;
};
/**
 * Reads a user-written text file through `readUserFile` (regular files only, at most
 * `MAX_FILE_BYTES`, never waiting on a FIFO or a device): invalid UTF-8 becomes U+FFFD, a BOM
 * is dropped, a missing file is `{ missing: true }`, and anything else that goes wrong is a
 * warning, never a throw. With `lossless` (a file about to be edited and written back), invalid
 * UTF-8 is kept byte for byte instead (see `decodeLossless`; `commitFiles` and
 * `writeFileAtomically` write it back as it was).
 *
 * @example
 * const file = await readTextFile("docs/knowledge-bank/patterns.md");
 * if ("text" in file) parseKnowledgeBank(file.text, { category: "patterns", scope: "local", path });
 */
declare function readTextFile(path: string, options?: UserFileOptions & {
    lossless?: boolean;
}): Promise<TextFileResult>;
/**
 * `readTextFile` in the calling thread, through `readUserFileSync`: for the session-start hook's
 * warm path and the small state files read between two writes.
 *
 * @example
 * const file = readTextFileSync(join(globalStoreDir, ".last-injection.json"));
 * const record = "text" in file ? JSON.parse(file.text) : null;
 */
declare function readTextFileSync(path: string, options?: UserFileOptions): TextFileResult;

/**
 * Writes a whole file so that readers see the old content or the new, never a torn one:
 * a temporary file beside it, fsync, rename. Text is written as `encodeLossless` writes it; bytes as they are. Creates its folder (mode 0700) if needed; the file
 * gets mode 0600 (memory can hold what a user would not share), or `mode` (a file in a user's
 * repository keeps the mode it had). `durable: false` skips the
 * fsync, for files that are cheap to lose in a power cut but written at every session start
 * (the tracking file, the injection cache); the rename still keeps them whole. `content` may be
 * given as pieces of text or of bytes (written one after the other, never joined whole: a cache
 * of many megabytes).
 *
 * @example
 * await writeFileAtomically("/home/ada/.claude/rules/iflow-memory.md", rules);
 * await writeFileAtomically(trackingPath(store), record, { durable: false });
 */
declare function writeFileAtomically(path: string, content: string | Uint8Array | readonly string[] | readonly Uint8Array[], options?: {
    durable?: boolean;
    mode?: number;
}): Promise<void>;

/** A cache not read or written for this long is removed by `pruneStoreCache`. */
declare const CACHE_MAX_AGE_MS: number;
/**
 * Removes from a global store's cache folder (`.cache`) what no session has used for
 * `CACHE_MAX_AGE_MS`: the caches of projects and memory files since deleted or left (a worktree
 * or a scratch clone makes its own), which nothing else would remove. Used means read or written
 * (the later of its access and modification times; where the file system keeps no access times, a
 * cache in use but unchanged for that long is removed and made again at the next session start).
 * Looks at most once a day, so that it can be called wherever caches are written; never follows
 * links, never touches V8's code caches, the sessions' ledgers (pruned on their own) or anything
 * it does not know. Returns how many files it removed; never throws.
 *
 * @example
 * pruneStoreCache(storeCacheDir("/home/ada/.claude/iflow/memory")); // 0, or what it removed
 */
declare function pruneStoreCache(cacheDir: string, now?: number): number;

/** `.last-injection.json`: the original's fields, then ours. */
interface TrackingRecord {
    timestamp: string;
    project: string;
    entries_injected: number;
    sources: {
        local: number;
        global: number;
    };
    entry_names: string[];
    chars: number;
    estimated_tokens: number;
    dropped_for_budget: number;
    /** The SessionStart source, when the hook injected. */
    event?: string;
}
/** What tracking needs of an injection plan (a cached injection keeps just this). */
type TrackedPlan = Pick<InjectionPlan, "block" | "sources" | "droppedForBudget"> & {
    /** `matchedTerms`: why relevance chose the entry (absent in today's order), for the injection history. */
    entries: ReadonlyArray<{
        name: string;
        contentHash: string;
        matchedTerms?: string[];
    }>;
    /** What the block's index names (hash and title only), when it has one. */
    indexed?: ReadonlyArray<{
        name: string;
        contentHash: string;
    }>;
};
/** The tracking file inside a global store. */
declare function trackingPath(globalStoreDir: string): string;
/** A project's name, as tracking and provenance record it: its root folder's name. */
declare function projectName(projectRoot: string): string;
/**
 * The tracking record of one injection.
 *
 * @example
 * createTrackingRecord({ plan, project: "webshop", now: new Date(), event: "startup" });
 * // { timestamp: "2026-11-22T10:00:00Z", project: "webshop", entries_injected: 20, … }
 */
declare function createTrackingRecord(options: {
    plan: TrackedPlan;
    project: string;
    now: Date;
    event?: string | undefined;
}): TrackingRecord;
/**
 * Replaces `<globalStoreDir>/.last-injection.json` atomically. Throws on I/O failure (with
 * `cause`); callers treat that as a warning, never as a reason to withhold the injection.
 */
declare function writeTracking(globalStoreDir: string, record: TrackingRecord): Promise<void>;
/**
 * Records an injection in the tracking file when it selected something: the warning to report
 * when the file cannot be written (the injection itself is unaffected), else null.
 *
 * @example
 * const warning = await trackInjection({ globalStoreDir, project: "webshop", plan, now: new Date() });
 */
declare function trackInjection(options: {
    globalStoreDir: string;
    project: string;
    plan: TrackedPlan;
    now: Date;
    event?: string | undefined;
}): Promise<StoreWarning | null>;

/** The journal of a commit in progress, inside the store directory. */
declare const COMMIT_JOURNAL = ".commit.json";
interface FileWrite {
    /** Absolute path of the file to replace or create. */
    path: string;
    /** Text (written as `encodeLossless` writes it), or the bytes themselves, whole or in pieces written one after the other. */
    content: string | Uint8Array | readonly Uint8Array[];
}
/**
 * Replaces several files as one: after a crash at any instant, either every file has its new
 * content or (once `recoverCommit` has run) every file has its old one — never a mix, never a
 * torn file. Each new content goes to a temporary file beside its target and is fsynced; a
 * journal naming the renames is then written atomically, the renames done, the journal removed.
 * Call it while holding the store's lock (`withStoreLock` finishes an interrupted commit first).
 * Files get mode 0600, new folders 0700. A content over `MAX_FILE_BYTES` (which the store could
 * not read back) is refused before anything is written.
 *
 * @example
 * await commitFiles(storeDir, [
 *   { path: join(storeDir, "anti-patterns.md"), content: antiPatterns },
 *   { path: join(storeDir, "heuristics.md"), content: heuristics },
 * ]);
 */
declare function commitFiles(directory: string, writes: readonly FileWrite[]): Promise<void>;
/**
 * Finishes a commit that a crashed writer left half-done (its journal still present) and
 * removes the temporary files of commits that never reached their journal. Run under the
 * store's lock; `withStoreLock` does it before every action.
 *
 * @example
 * await recoverCommit(storeDir); // true if an interrupted commit was finished
 */
declare function recoverCommit(directory: string): Promise<boolean>;

/**
 * A store operation that could not be carried out. `code` is stable, for programs; the message
 * is one line for a person: what failed, why, and what to do.
 *
 * @example
 * throw new StoreError("STORE_LOCKED", "cannot write the global store: another process holds its lock; try again");
 */
declare class StoreError extends Error {
    readonly code: StoreErrorCode;
    constructor(code: StoreErrorCode, message: string, options?: {
        cause?: unknown;
    });
}
type StoreErrorCode = "STORE_LOCKED" | "STORE_NOT_DIRECTORY" | "STORE_UNREADABLE" | "STORE_WRITE_FAILED" | "LESSON_NOT_FOUND" | "NO_RUN_ID" | "SECRET_FOUND" | "ENTRY_NOT_FOUND" | "GIT_FAILED" | "INVALID_MEMORY";

/** The lock file's name inside a store directory. */
declare const LOCK_FILE = ".lock";

interface StoreLockOptions {
    /** Give up after this long (default 10 s): a store is never held that long by a healthy writer. */
    timeoutMs?: number;
    /**
     * A lock of another host whose heartbeat (its file's mtime, refreshed by its holder) is older
     * than this is stale (default 60 s). A lock of this host is stale only when its process is
     * gone: a live holder, even one stalled for minutes, keeps it.
     */
    staleMs?: number;
}
/**
 * Runs `action` while holding the exclusive lock of a store directory, and releases it after,
 * whatever happens. The lock is a file created atomically (hard link of a complete temporary
 * file), so a reader never sees a half-written owner. A lock is broken only when its holder is
 * provably gone: on this host, its process no longer exists; on another, its heartbeat is older
 * than `staleMs`. The holder refreshes the heartbeat while `action` runs, and `commitFiles`
 * checks that the lock is still its own before it commits. Before `action` runs, a commit
 * that a crashed writer left half-done is finished (see `commitFiles`), so `action` always
 * reads a consistent store.
 *
 * @example
 * await withStoreLock("/home/ada/.claude/iflow/memory", async () => {
 *   const text = await readFile(path, "utf8");
 *   await commitFiles(directory, [{ path, content: merge(text) }]);
 * });
 */
declare function withStoreLock<T>(directory: string, action: () => Promise<T>, options?: StoreLockOptions): Promise<T>;

/**
 * What relevance ranks: the candidates of an injection and their full-text index, with what
 * every plan needs of all of them whatever the query — their places in today's order and in
 * recency (`entryOrders`) and the hash prefixes two of them share (`sharedHashPrefixes`) —
 * worked out once with the index, so that a plan sorts nothing and reads only the entries it
 * ranks or shows.
 */
interface RankingData {
    candidates: Entry[];
    index: AnyRelevanceIndex;
    orders: EntryOrders;
    sharedHashPrefixes: string[];
}
/**
 * The ranking cache file's text: a first line of JSON with what a ranking reads of every entry
 * and the index's terms, then one JSON line per entry with all of it, then a line of every term's
 * postings. A reader parses the first line only; an entry's own line when something asks for
 * its text (its name, description…), as formatting the twenty injected entries does; and a
 * term's postings when a query first holds it: a bank of 50,000 entries is ranked without
 * parsing 50,000 descriptions, or the postings of terms no query asked for.
 *
 * @example
 * decodeRankingCache(Buffer.from(encodeRankingCache(fingerprint, injection.ranking)), fingerprint);
 */
declare function encodeRankingCache(fingerprint: string, ranking: RankingData): string;
/**
 * The ranking in a cache file's bytes when its fingerprint is `fingerprint`, else null (stale,
 * torn or not ours). Its entries hold the fields a ranking reads; the rest of each is parsed from
 * its own line at first use, and a term's postings are read when first asked for.
 */
declare function decodeRankingCache(bytes: Uint8Array, fingerprint: string): RankingData | null;

/**
 * What a session's injections are worked out from, read from the files alone: the project's
 * config, today's plan, and what relevance ranks (the candidates and their index). Plain data
 * (JSON-serialisable), so the hooks can cache it until one of its files changes; the query — what
 * the session or the prompt is about — is applied per session (`planSessionInjection`).
 */
interface SessionInjection {
    config: MemoryConfig;
    configWarnings: StoreWarning[];
    /** Today's order: for `memory_injection_ranking: original`, and a session with nothing to rank by. Empty when injection is off. */
    plan: TrackedPlan;
    /** The entries relevance chooses from and their full-text index; absent when injection is off or nothing ranks by relevance. */
    ranking?: RankingData;
    warnings: StoreWarning[];
}
/**
 * Reads a project's config, its knowledge bank and (unless the config turns it off) the global
 * store; plans today's injection within the config's limit and character budget, and indexes
 * the candidates for relevance. With `fileCache`, a memory file unchanged since it was last read
 * is taken from that cache instead of being parsed again (see `readEntryFiles`).
 *
 * @example
 * const injection = await prepareSessionInjection({ projectRoot: "/work/webshop",
 *   globalStoreDir: "/home/ada/.claude/iflow/memory" });
 * injection.plan.block; // "## Engineering Memory (from knowledge bank)\n\n…"
 */
declare function prepareSessionInjection(options: {
    projectRoot: string;
    globalStoreDir: string;
    fileCache?: EntryFileCache;
}): Promise<SessionInjection>;
/** Lines a session start's index names at most. */
declare const SESSION_INDEX_MAX_LINES = 150;
/**
 * The share of the budget that entries of the proven core may not take when there is an index:
 * room for titles of the rest. Chosen with `SESSION_MATCHES_IN_FULL` by `pnpm eval:relevance` on
 * its dev contexts: of the settings that name at least 0.70 of the labelled entries in full or by
 * title, the one with the most in full and by title together (a tie within 0.01 to more in full).
 */
declare const SESSION_INDEX_SHARE = 0.7;
/** Entries that match the session shown in full at most, with an index; the next lead the index (see `SESSION_INDEX_SHARE`). */
declare const SESSION_MATCHES_IN_FULL = 5;
/**
 * The `index` of a session start's `planInjection` under `config` (none with
 * `memory_injection_index: false`), its heading naming the MCP tools; `planSessionStart` names
 * the command line instead where the MCP server is not registered.
 */
declare function sessionIndex(config: MemoryConfig): {
    index?: InjectionIndex;
};
/** What tracking and the session ledger keep of a plan. */
declare function trackedPlan(plan: InjectionPlan): TrackedPlan;

/** The iflow feature a session works on: `docs/features/<id>-<slug>/` and its spec. */
interface ActiveFeature {
    id: string;
    slug: string;
    /** The spec's first `# ` heading, a leading "Spec:" or "Specification:" removed; else the slug in words. */
    title: string;
    /** The spec's first paragraph of prose, at most 500 characters; `""` without one. */
    summary: string;
}

/** What a session is about, gathered at its start to rank the knowledge bank's entries. */
interface SessionSignals {
    /** The project's name: package.json / pyproject / Cargo.toml (/ go.mod) name when present, else the root folder's name. */
    project: string;
    /** The checked-out branch; `null` without git or on a detached HEAD. */
    branch: string | null;
    /**
     * Changed files, relative to the repository's top folder (which may be above the project
     * root), deduplicated: staged, unstaged and untracked (an untracked folder as `folder/`),
     * then those changed by the branch's commits since it left the default branch, newest first.
     * At most `MAX_CHANGED_FILES`.
     */
    changedFiles: string[];
    /**
     * Subjects of the branch's own commits since the default branch (newest first, merges left
     * out, at most 20); on the default branch itself, or when there is none, the last 5 commits'.
     * Subjects that say nothing of the work (merges, reverts, "wip", "fix typo", version bumps:
     * `commitSubjectTopic` is null) are left out before counting.
     */
    commitSubjects: string[];
    /** The active iflow feature (see `findActiveFeature`), `null` when none is. */
    feature: ActiveFeature | null;
    /** Stack markers and dependency names (see `readProjectStack`), at most 40. */
    stack: string[];
    /** One line each for what was skipped and why. */
    skipped: string[];
}
interface GatherSessionSignalsOptions {
    projectRoot: string;
    /**
     * Git's time budget in milliseconds, from the call (with `startSessionSignals`, from the call
     * to `signals()`); git is killed when it runs out. Default 200.
     */
    timeoutMs?: number;
    /** The environment git runs with (its PATH finds git). Default `process.env`. */
    env?: Record<string, string | undefined>;
    /**
     * A folder where the branch's `git log` answer is kept between calls (the hooks give
     * `<global store>/.cache`), keyed by the commits it was read from (`gitLogKey`): a session start
     * on the same commits as the last runs `git status` only. Absent: `git log` runs at every call.
     */
    cacheDir?: string;
    /**
     * `child_process.spawn`, when the caller has it: git then starts within the call. Absent:
     * loaded when a repository is found. (Typed loosely so that these types need no Node types.)
     */
    spawn?: (...args: never[]) => unknown;
}
/** Signals being gathered: git started, its answer not yet waited for. */
interface PendingSessionSignals {
    /** The signals, once git has answered or its budget (from this call) has run out. Call it once. */
    signals(): Promise<SessionSignals>;
    /** Stops git when the signals are not wanted after all (`signals` is then never called). */
    cancel(): void;
}
declare const DEFAULT_SIGNALS_TIMEOUT_MS = 200;
declare const MAX_CHANGED_FILES = 200;
/**
 * The session-start signals of a project, cheap and bounded; never throws, never blocks the
 * event loop on git, never waits for git past `timeoutMs`.
 *
 * - `branch`, the default branch and the repository's top folder are read from the files under
 *   `.git` (worktrees and submodules, whose `.git` is a file `gitdir: …`, included): no spawn.
 * - At most two `git` processes, run at once, both killed (with whatever they started) when the
 *   budget runs out: `git status --porcelain=v1 -z --untracked-files=normal --no-renames
 *   --ignore-submodules=dirty` (stopped after 200 paths) and one `git log -z --name-only` over
 *   `<default>..HEAD` (the branch's last 50 commits, merges left out) — or, on the default branch,
 *   `git log --no-merges -n 20` for its subjects (5 kept once boilerplate ones are left out). With `cacheDir`, the log is run once per pair of commits
 *   (HEAD, the default branch) and read from there after: only `git status` sees what changes
 *   without a commit. Git runs without prompts, optional locks or a pager, in
 *   the repository found on disk (an inherited `GIT_DIR` is ignored). A git that is slow,
 *   missing or failing leaves its signals empty and says so in `skipped`.
 * - `project` and `stack` come from the manifests in the project root (`readProjectStack`), the
 *   feature from `docs/features/` (`findActiveFeature`), both read with size caps.
 *
 * Paths stay relative to the repository's top folder, also when the project root is below it.
 *
 * @example
 * await gatherSessionSignals({ projectRoot: "/work/semantic-memory" });
 * // { project: "semantic-memory", branch: "fix/embedding-call-timeouts",
 * //   changedFiles: ["semantic_memory/retry.py", "tests/test_retry.py"],
 * //   commitSubjects: ["Time out embedding calls after 10 s"], feature: null,
 * //   stack: ["python", "httpx", "tenacity"], skipped: [] }
 */
declare function gatherSessionSignals(options: GatherSessionSignalsOptions): Promise<SessionSignals>;
/**
 * `gatherSessionSignals` in two steps, for a caller with other work to do while git runs: git
 * starts within this call when `spawn` is given, and `signals()` waits for its answer, git's
 * budget counting from then. What a session start does between the two cannot run out git's time.
 *
 * @example
 * const pending = startSessionSignals({ projectRoot, spawn, cacheDir: join(globalStoreDir, ".cache") });
 * const index = readTheIndex();
 * const signals = await pending.signals();
 */
declare function startSessionSignals(options: GatherSessionSignalsOptions): PendingSessionSignals;

/** Characters a prompt's recall may add at most: a prompt is a small step, not a new session. */
declare const PROMPT_RECALL_MAX_CHARS = 3000;
/** A plan and how it was chosen. */
type SessionPlan = TrackedPlan & {
    ranking: "relevance" | "original";
};
/**
 * What a session start injects. With `memory_injection_ranking: relevance` (the default) and a
 * query that has terms (the session's signals): the entries relevant to it, best first, then the
 * proven core in today's order, within the config's limit and budget — never empty while there
 * are entries; with `strict`, the relevant entries alone. Otherwise (no signal, `original`),
 * today's plan. With `memory_injection_index` (the default), an index of the next entries follows,
 * its heading naming how to fetch them (`fetch`: the MCP tools, or `iflow-memory show`).
 *
 * @example
 * planSessionStart(injection, sessionQuery(await gatherSessionSignals({ projectRoot })), { fetch: "mcp" }).block;
 */
declare function planSessionStart(injection: SessionInjection, query: RelevanceQuery | null, options?: {
    feedback?: ReadonlyMap<string, EntryFeedback>;
    fetch?: MemoryFetch;
}): SessionPlan;
/**
 * What a prompt adds: the entries relevant to the prompt that the session has not been given
 * (`given`), at most `memory_prompt_recall_limit` and `PROMPT_RECALL_MAX_CHARS` characters;
 * then a line (hash and title) for each of a few more over the floor (`PROMPT_INDEX_MAX_LINES`);
 * nothing when none clears the prompt's relevance floor (`PROMPT_RECALL_FLOOR`, stricter than a
 * session start's), when the prompt has no word but stop words, or when prompt recall or
 * injection is off.
 *
 * @example
 * planPromptRecall(injection, "why does the embedding call time out?", readSessionLedger(store, id)).block;
 */
declare function planPromptRecall(injection: SessionInjection, prompt: string, given: ReadonlySet<string>, options?: {
    feedback?: ReadonlyMap<string, EntryFeedback>;
    fetch?: MemoryFetch;
}): TrackedPlan;
/**
 * The relevance query of a session start: what its signals say it is about.
 *
 * @example
 * sessionQuery(await gatherSessionSignals({ projectRoot }));
 * // { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"], … }
 */
declare function sessionQuery(signals: SessionSignals): RelevanceQuery;

interface InjectionFingerprint {
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
declare function injectionFingerprint(options: {
    projectRoot: string;
    globalStoreDir: string;
    salt: string;
    now?: number;
}): InjectionFingerprint;
/**
 * The global store's folder of caches: what can be worked out again from other files (injections,
 * git's answers, sessions' ledgers), never the user's own data.
 *
 * @example
 * storeCacheDir("/home/ada/.claude/iflow/memory"); // "/home/ada/.claude/iflow/memory/.cache"
 */
declare function storeCacheDir(globalStoreDir: string): string;
/**
 * The cache of the user's store at `globalStoreDir` (its `.cache` folder), salted as every reader
 * of the store's caches is (`MEMORY_CACHE_SALT`).
 *
 * @example
 * await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true, cache: entryFileCache(globalStoreDir) });
 */
declare function entryFileCache(globalStoreDir: string): EntryFileCache;
/** Where a project's cached injection lives: in the global store, one file per project root (a collision of names costs a recomputation: the fingerprint holds the full path). */
declare function injectionCachePath(globalStoreDir: string, projectRoot: string): string;
/**
 * The cached injection when its fingerprint is `fingerprint`, else null (missing, stale or
 * unreadable: the caller recomputes). Read in the calling thread (a warm session start waits for
 * nothing), through `readTextFileSync`: whatever is put in its place, it never blocks on it.
 *
 * @example
 * readCachedInjection(injectionCachePath(store, root), fingerprint) ?? (await prepareSessionInjection(…));
 */
declare function readCachedInjection(path: string, fingerprint: string): SessionInjection | null;
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
declare function readCachedInjectionOrEarlier(path: string, fingerprint: Pick<InjectionFingerprint, "value" | "settings">, options: {
    earlier: boolean;
}): {
    injection: SessionInjection;
    fingerprint: string;
    stale: boolean;
} | null;
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
declare function forgetCachedInjection(globalStoreDir: string, projectRoot: string): void;
/** Where the ranking half of a cached injection (candidates and index) lives: beside it. */
declare function rankingCachePath(path: string): string;
/**
 * The cached candidates and index when their fingerprint is `fingerprint`, else null. Only the
 * file's first line is read (the index and what ranking reads of every entry); an entry's own
 * line is read and parsed when its text is first asked for (`decodeRankingCacheHeader`), from
 * the file as it was opened (a newer one renamed into its place does not mix in). The file stays
 * open until no entry of it is left.
 *
 * @example
 * readCachedRanking(injectionCachePath(store, root), fingerprint)?.index;
 */
declare function readCachedRanking(path: string, fingerprint: string): RankingData | null;
/**
 * Saves an injection with the fingerprint of the files it came from (atomically, mode 0600:
 * it holds memory text): what relevance ranks in a file of its own (`rankingCachePath`), written
 * first, and the rest — small, read at every session start — in `path`. Then, once a day at
 * most, removes the caches no session has used for a month (`pruneStoreCache`).
 *
 * @example
 * await writeCachedInjection(injectionCachePath(store, root), fingerprint, injection);
 */
declare function writeCachedInjection(path: string, fingerprint: string, injection: SessionInjection): Promise<void>;
/** Where the last relevance plan made from a cached injection is kept: beside it. */
declare function planCachePath(path: string): string;
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
declare function readCachedPlan(path: string, fingerprint: string): {
    query: string;
    plan: SessionPlan;
} | null;
/** Saves a session-start plan for `readCachedPlan` (atomically, mode 0600). */
declare function writeCachedPlan(path: string, fingerprint: string, query: string, plan: SessionPlan): Promise<void>;
/** A claim older than this is taken to belong to a refresh that died (killed, out of memory). */
declare const REFRESH_CLAIM_MS: number;
/** What `claimCacheRefresh` found: the claim is now this caller's, another live one holds it, or no claim can be made. */
type RefreshClaim = "claimed" | "taken" | "impossible";
/**
 * Claims the right to recompute a cached injection away from any session start (a background
 * process). The claim is a marker file beside the cache, made exclusively, so that sessions
 * starting together start one refresh, not one each; `releaseCacheRefresh` ends it, and one
 * older than `REFRESH_CLAIM_MS` is taken over. "impossible" when the cache folder cannot be
 * made or written (a file in its place, a read-only home).
 *
 * @example
 * if (claimCacheRefresh(injectionCachePath(store, root)) === "claimed") startRefresh(); // which ends with releaseCacheRefresh
 */
declare function claimCacheRefresh(path: string, now?: number): RefreshClaim;
/** Ends a claim made by `claimCacheRefresh` (nothing when there is none). */
declare function releaseCacheRefresh(path: string): void;

/** Files changed this recently may change again within the file system's time granularity. */
declare const SETTLE_MS = 2000;

/**
 * The layout of the store's cached injection and ranking (`writeCachedInjection`): raised when
 * what they hold, or how they hold it, changes, so that no reader takes another layout for its own.
 */
declare const MEMORY_CACHE_FORMAT = 2;
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
declare const MEMORY_CACHE_SALT: string;

/** Where ArcheFlow keeps its memory, relative to the project. */
declare const DEFAULT_LESSONS_DIR = ".archeflow/memory";
/** Our own bookkeeping beside ArcheFlow's files (ArcheFlow ignores it). */
declare const LESSONS_STATE_FILE = ".iflow-memory-lessons.json";
interface LessonsState {
    /** The highest id number ever given, so that ids are never reused, even after an archive is cleared. */
    /** A number, or a string of digits when past 2^53. */
    highestId: number | string;
    /** Runs already extracted, oldest first; extracting one again changes nothing. */
    extractedRuns: string[];
}
interface LessonsRead {
    directory: string;
    lessons: Lesson[];
    archive: Lesson[];
    /** `audit.jsonl` records that parse as JSON objects. */
    audit: Array<Record<string, unknown>>;
    state: LessonsState;
    warnings: LessonWarning[];
}
/** What a change to a lessons directory writes: all of it at once, or nothing. */
interface LessonsChange {
    /** The lessons after the change, in file order; a lesson left out is removed from lessons.jsonl. */
    lessons?: Lesson[];
    /** Lessons to append to archive.jsonl. */
    archive?: Lesson[];
    /** Records to append to audit.jsonl, one line each. */
    audit?: Array<Record<string, unknown>>;
    state?: LessonsState;
}
/**
 * Reads a lessons directory (`lessons.jsonl`, `archive.jsonl`, `audit.jsonl`, our state file).
 * Missing files are empty; malformed lines are warnings (and stay on disk).
 *
 * @example
 * const { lessons, warnings } = await readLessons(".archeflow/memory");
 */
declare function readLessons(directory: string): Promise<LessonsRead>;
/**
 * Changes a lessons directory under its lock: reads it, lets `change` decide (it may call
 * `newId()` for fresh `m-NNN` ids, unique across lessons, archive and every earlier id), and
 * writes lessons.jsonl, archive.jsonl and the state all-or-nothing; audit records are appended
 * as whole lines. Lines of lessons.jsonl that are not valid lessons, and lessons the change
 * leaves as they were, are written back byte for byte.
 *
 * @example
 * await updateLessons(dir, ({ lessons }, newId) => ({ lessons: [...lessons, { ...draft, id: newId() }] }));
 */
declare function updateLessons<T>(directory: string, change: (current: LessonsRead, newId: () => string) => {
    change: LessonsChange;
    result: T;
}): Promise<T>;

/**
 * `lessons add`: a manual lesson (default type `preference`: injected at once).
 *
 * @example
 * await addLesson(".archeflow/memory", { description: "User prefers one bundled PR" }); // { id: "m-005", … }
 */
declare function addLesson(directory: string, fields: {
    description: string;
    type?: string;
    domain?: string;
    tags?: string[];
    severity?: string;
}, clock?: () => Date): Promise<Lesson>;
/**
 * `lessons forget`: moves a lesson to archive.jsonl, whatever its frequency.
 *
 * @example
 * await forgetLesson(".archeflow/memory", "m-002");
 */
declare function forgetLesson(directory: string, id: string): Promise<Lesson>;
interface ExtractReport {
    runId: string;
    added: Lesson[];
    confirmed: Lesson[];
    skipped: number;
    alreadyExtracted: boolean;
    warnings: Array<{
        path: string;
        line: number;
        message: string;
    }>;
}
/**
 * `lessons extract`: learns from one run's event stream. A run already extracted changes nothing.
 *
 * @example
 * await extractLessonsFromEvents(".archeflow/memory", ".archeflow/events/r7.jsonl"); // { runId: "r7", added: […], … }
 */
declare function extractLessonsFromEvents(directory: string, eventsPath: string, options?: {
    runId?: string;
    clock?: () => Date;
}): Promise<ExtractReport>;
/**
 * `lessons decay`: ages the lessons not seen in `runId` (default: the run extracted last).
 *
 * @example
 * await decayLessonsInDirectory(".archeflow/memory"); // { runId: "r7", aged: 12, archived: [] }
 */
declare function decayLessonsInDirectory(directory: string, options?: {
    runId?: string;
}): Promise<{
    runId: string | null;
    aged: number;
    archived: Lesson[];
}>;
/**
 * `lessons inject`: the `## Known Issues (from past runs)` section for a domain and archetype
 * ("" when nothing qualifies); with `auditRunId`, records what was injected into that run.
 *
 * @example
 * (await injectLessons(".archeflow/memory", { domain: "code" })).text; // "## Known Issues (from past runs)\n- … [seen 3x, guardian]\n"
 */
declare function injectLessons(directory: string, options?: {
    domain?: string;
    archetype?: string;
    auditRunId?: string;
    clock?: () => Date;
}): Promise<{
    text: string;
    lessons: Lesson[];
    warnings: LessonsWarnings;
}>;
type LessonsWarnings = Array<{
    path: string;
    line: number;
    message: string;
}>;
/**
 * `lessons audit-check`: for each lesson injected into a run (per audit.jsonl), whether its issue
 * came back in the run's findings. Checks already recorded for the run are not recorded again.
 *
 * @example
 * await auditCheck(".archeflow/memory", "r8", ".archeflow/events/r8.jsonl"); // { checks: […], alreadyChecked: [] }
 */
declare function auditCheck(directory: string, runId: string, eventsPath: string, clock?: () => Date): Promise<{
    checks: EffectivenessCheck[];
    alreadyChecked: string[];
    injected: number;
    warnings: LessonsWarnings;
}>;
/**
 * `lessons effectiveness`: helpful and ineffective counts per lesson and overall, from audit.jsonl.
 *
 * @example
 * (await readEffectiveness(".archeflow/memory")).ratio; // 0.75
 */
declare function readEffectiveness(directory: string): Promise<EffectivenessSummary>;

/**
 * What ties an entry to this codebase, for `classifyEntry`: the project's name, top-level
 * names, package names, files (found with fast-glob, up to 20,000; dependency and build
 * folders skipped), and where the identifiers the entries name occur in its files.
 *
 * @example
 * const facts = await gatherProjectFacts("/work/webshop", "webshop", entries);
 * facts.identifiers; // { detect_project_root: "hooks/lib/common.sh" }
 */
declare function gatherProjectFacts(projectRoot: string, name: string, entries: readonly Entry[]): Promise<ProjectFacts>;

/**
 * The header of a global-store file (DESIGN §3.3).
 *
 * @example
 * globalStoreHeader("heuristics"); // "# Global Heuristics\n\nCross-project learnings promoted …\n"
 */
declare function globalStoreHeader(category: Category): string;
interface GlobalEntryFields {
    category: Category;
    name: string;
    description: string;
    contentHash: string;
    sources: string[];
    observationCount: number;
    lastObserved: string;
    tags: string;
    confidence: Confidence;
}
/**
 * A new global-store entry in the §3.3 format, ending with a newline.
 *
 * @example
 * formatGlobalEntry({ category: "patterns", name: "Atomic Writes", description: "Write, fsync, rename.", contentHash: "61c6…",
 *   sources: ["infra-tools, Feature #061"], observationCount: 1, lastObserved: "2026-10-10T15:00:00Z", tags: "universal", confidence: "medium" });
 */
declare function formatGlobalEntry(fields: GlobalEntryFields): string;
/**
 * A global-store file with one more entry at its end (the §3.3 header first when the file is new);
 * several entries formatted by `formatGlobalEntry` and joined with "\n" are appended as they would
 * be one by one.
 *
 * @example
 * appendGlobalEntry("", "patterns", formatGlobalEntry(fields)); // "# Global Patterns\n\n…\n\n### Pattern: …"
 */
declare function appendGlobalEntry(text: string, category: Category, entry: string): string;
/**
 * The file with the entry whose header is on `headerLine` (1-based) observed once more: its
 * observation count set, `Last observed` set and a provenance added to `Source` (each line
 * added after the entry's metadata if it had none). Every other byte stays as it was.
 *
 * @example
 * recordObservation(text, 12, { observationCount: 3, lastObserved: "2026-11-22T10:00:00Z", source: "webshop, Feature #042" });
 */
declare function recordObservation(text: string, headerLine: number, update: {
    observationCount: number;
    lastObserved: string;
    source: string;
}): string;
/** The provenance items of a `Source` value: "a, Feature #1; b, Feature #2" → ["a, Feature #1", "b, Feature #2"]. */
declare function sourceItems(source: string | undefined): string[];
/**
 * The file with a metadata line set on the entry whose header is on `headerLine` (replaced if
 * the key is there, else added after the entry's last line; removed when the value is empty and
 * `removeWhenEmpty`). Every other byte stays.
 *
 * @example
 * recordMetadata(text, 12, "Contested with", "Other Entry (sha256:491b5e15f50c1c0d)");
 */
declare function recordMetadata(text: string, headerLine: number, key: string, value: string, options?: {
    removeWhenEmpty?: boolean;
}): string;

/** The store's memory of what each project promoted, beside the category files. */
declare const PROMOTIONS_FILE = ".promotions.json";
type PromoteSelection = {
    kind: "new";
} | {
    kind: "all";
} | {
    kind: "names";
    names: string[];
} | {
    kind: "since";
    revision: string;
}
/** Entries that are not in the knowledge bank (MCP `store_memory` with global scope). */
 | {
    kind: "entries";
    entries: Entry[];
};
interface PromoteOptions {
    projectRoot: string;
    globalStoreDir: string;
    /** Default: the project root's folder name. */
    project?: string | undefined;
    /** Default: none; the provenance is then the project alone, counted once per entry. */
    feature?: string | undefined;
    /** Default: the entries this project has not promoted (or kept local) before. */
    selection?: PromoteSelection;
    universal?: string[];
    projectSpecific?: string[];
    dryRun?: boolean;
    /** Refuse to promote anything that contains a secret, instead of redacting it. */
    strict?: boolean;
    now?: Date;
}
interface PromotedEntry {
    name: string;
    category: Category;
    contentHash: string;
    kind: "universal" | "project-specific";
    reason: string;
    /** added: a new global entry; counted: an existing one observed once more; already-counted: this provenance was counted before; kept-local: project-specific. */
    action: "added" | "counted" | "already-counted" | "kept-local";
    /** The global entry's observation count after the promotion (universal entries). */
    observationCount: number | null;
    /** Kinds of the secrets replaced by [REDACTED]. */
    redacted: string[];
}
interface PromoteResult {
    project: string;
    provenance: string;
    entries: PromotedEntry[];
    summary: string;
    dryRun: boolean;
    warnings: string[];
}
/**
 * Promotes a project's learnings into the global store (DESIGN §4.3): selects entries, redacts
 * secrets (or refuses with `strict`), classifies each as universal or project-specific with a
 * reason, and merges the universal ones — a content-hash match is observed once more (count + 1,
 * `Last observed`, provenance appended), anything else becomes a new entry. The same project and
 * feature never count twice. Every change to the store's files is made under its lock and
 * committed all-or-nothing.
 *
 * @example
 * const result = await promoteEntries({ projectRoot: "/work/webshop", globalStoreDir, feature: "042" });
 * result.summary; // "Memory promotion: 3 universal entries promoted to global store, 1 project-specific entries kept local."
 */
declare function promoteEntries(options: PromoteOptions): Promise<PromoteResult>;

/** Where forgotten global entries go: never deleted. */
declare const ARCHIVE_FILE = ".archive.md";
type ListScope = "local" | "global" | "all";
/**
 * The entries of a project and/or the global store, in injection order within each category
 * (anti-patterns, heuristics, patterns), local before global.
 *
 * @example
 * const { entries } = await listEntries({ projectRoot, globalStoreDir, scope: "global" });
 */
declare function listEntries(options: {
    projectRoot: string;
    globalStoreDir: string;
    scope?: ListScope;
    category?: Category;
}): Promise<{
    entries: Entry[];
    warnings: string[];
}>;
/**
 * The entries a user means by `query`: a content hash (`sha256:…`, the 16 hex digits, or a
 * prefix of at least 4), else a name (case-insensitive).
 *
 * @example
 * findEntries(entries, "0baa2a5b"); // [the entry whose hash starts with it]
 */
declare function findEntries(entries: readonly Entry[], query: string): Entry[];
/**
 * The one entry `query` names (as `findEntries` reads it): a project's copy and the global
 * store's share a content hash and count as one, `prefer`'s copy returned when there are both.
 * When it names none, or several distinct entries, throws ENTRY_NOT_FOUND in one line:
 * `<action>: <notFound>`, or `<action>: it matches N entries (…); give more of the hash`.
 *
 * @example
 * findOneEntry(entries, "0baa2a5b", { action: "cannot forget 0baa2a5b", notFound: "no global entry has that hash or name; see iflow-memory list --scope global" });
 */
declare function findOneEntry(entries: readonly Entry[], query: string, options: {
    action: string;
    notFound: string;
    prefer?: Entry["scope"];
}): Entry;
/**
 * Moves a global entry to `.archive.md` in the store (never deletes it), all-or-nothing, under
 * the store's lock; entries contested with it stop naming it.
 *
 * @example
 * await forgetGlobalEntry(globalStoreDir, "0baa2a5b"); // the archived entry
 */
declare function forgetGlobalEntry(globalStoreDir: string, query: string, now?: Date): Promise<Entry>;
/**
 * Marks two global entries as contradicting each other: each gets a `- Contested with:` line
 * naming the other, which every injection of it shows.
 *
 * @example
 * await contestGlobalEntries(globalStoreDir, "0baa2a5b", "491b5e15"); // [entryA, entryB]
 */
declare function contestGlobalEntries(globalStoreDir: string, queryA: string, queryB: string): Promise<[Entry, Entry]>;
/** How a global entry is tagged: injected into every project, or only into those its `Source` names. */
type EntryReach = "universal" | "project-specific";
/**
 * Re-tags a global entry `universal` (injected into every project) or `project-specific`
 * (injected only into the projects its `Source` names), keeping its other tags; all-or-nothing,
 * under the store's lock, like `forgetGlobalEntry`. `changed` is false when it was tagged so already.
 *
 * @example
 * await tagGlobalEntry(globalStoreDir, "a58f264b", "universal"); // { entry, changed: true }
 */
declare function tagGlobalEntry(globalStoreDir: string, query: string, reach: EntryReach): Promise<{
    entry: Entry;
    changed: boolean;
}>;
/** The raw text of the tracking file, parsed, or null. */
declare function readLastInjection(globalStoreDir: string): Record<string, unknown> | null;

interface HealthCheck {
    name: string;
    status: "ok" | "warning" | "problem";
    details: string[];
}
/**
 * `doctor`: the config, the global store (readable, private), the knowledge bank, duplicate
 * names, contradictory entries and secrets, each with a status; a problem is something to fix
 * (the command exits 1), a warning something to look at.
 *
 * @example
 * (await diagnoseMemory({ projectRoot, globalStoreDir })).map((check) => check.status); // ["ok", "ok", …]
 */
declare function diagnoseMemory(options: {
    projectRoot: string;
    globalStoreDir: string;
}): Promise<HealthCheck[]>;
interface MemoryStats {
    entries: Record<"local" | "global", Record<Category, number>>;
    injection: {
        entries: number;
        chars: number;
        estimatedTokens: number;
        droppedForBudget: number;
        enabled: boolean;
        /** How the next session start chooses: by relevance to the signals, or today's order (config, or no signal to rank by). */
        ranking: "relevance" | "original";
        /** The entries it injects, in the block's order. */
        names: string[];
        /** Entries its index names (hash and title) after those in full. */
        indexed: number;
    };
    /** What the next session start would find the session to be about (git, the active feature, the stack). */
    signals: SessionSignals;
    /** Readers' votes (`record_feedback`, `iflow-memory feedback`): entries voted on, and the votes. */
    feedback: {
        entries: number;
        helpful: number;
        unhelpful: number;
    };
    lastInjection: Record<string, unknown> | null;
    /** What could not be read or was replaced by a default, one line each ("PATH:LINE: message"). */
    warnings: string[];
}
/**
 * `stats`: entries per scope and category, the signals a session start finds (git branch,
 * changed files, commit subjects, active feature, stack), what the project's next session start
 * would inject for them (entries, size, estimated tokens, as the hook computes it), readers'
 * feedback, and the last injection recorded.
 *
 * @example
 * (await collectStats({ projectRoot, globalStoreDir })).injection.chars; // 8885
 */
declare function collectStats(options: {
    projectRoot: string;
    globalStoreDir: string;
    env?: Record<string, string | undefined>;
}): Promise<MemoryStats>;

/** The first line of an exported rules file: it is ours to overwrite. */
declare const GENERATED_MARKER = "<!-- Generated by iflow-memory export-rules";
/**
 * The Phase 0 fallback: the global store's universal entries, selected and budgeted like an
 * injection (the project's config limit and character budget), written atomically to a Claude
 * Code rules file marked as generated. A file without the marker is not overwritten unless
 * `force`.
 *
 * @example
 * await exportRules({ globalStoreDir, projectRoot, destination: "/home/ada/.claude/rules/iflow-memory.md" }); // { entries: 12, chars: 5210 }
 */
declare function exportRules(options: {
    globalStoreDir: string;
    projectRoot: string;
    destination: string;
    force?: boolean;
    now?: Date;
}): Promise<{
    entries: number;
    chars: number;
    path: string;
}>;

/**
 * Rewrites a JSON settings file through `change`, atomically, keeping a backup of the previous
 * version beside it (`<file>.iflow-memory.bak`). A missing file is `{}`; a file that is not a
 * JSON object is never touched (the error names the file and the position). A symbolic link (a
 * dotfiles repository) stays a link: its target is rewritten.
 *
 * @example
 * await updateSettingsFile("/home/ada/.claude/settings.json", (settings) => ({ settings: next, changed: true }));
 */
declare function updateSettingsFile<T extends {
    changed: boolean;
}>(path: string, change: (settings: Record<string, unknown>) => T & {
    settings: Record<string, unknown>;
}, options?: {
    dryRun?: boolean;
}): Promise<T & {
    settings: Record<string, unknown>;
    backup: string | null;
}>;

/** What `revertSettingsFile` did to the file. */
type SettingsRevertOutcome = 
/** The backup held exactly what the removal gives: it is the file again, byte for byte. */
"restored"
/** The file was written without our entries (it changed since the backup, or there is none). */
 | "rewritten"
/** Nothing but our entries was in it and there was no file before the install: it is gone. */
 | "deleted"
/** None of our entries was in it. */
 | "unchanged";
/**
 * Undoes `updateSettingsFile`'s install: `remove` takes our entries out of the settings, and
 * returns both the result without what the removal left empty (`settings`) and, for settings
 * that had those empty containers before, the result that keeps them (`keptEmpty`). When the
 * backup `updateSettingsFile` kept (`<file>.iflow-memory.bak`) holds either, it is moved back
 * over the file, so the file is byte for byte what it was before the install; otherwise the file
 * is rewritten (2-space JSON), or deleted when nothing is left of it and no backup says there
 * was a file before. Once that succeeded — or there was nothing to remove — the backup is
 * removed. A file that is not a JSON object is never touched; a change another program makes
 * meanwhile (Claude Code's `~/.claude.json`) is read again, never overwritten.
 *
 * @example
 * const result = await revertSettingsFile("/home/ada/.claude/settings.json", (settings) => {
 *   const removed = removeSessionStartHook(settings);
 *   return { settings: removed.settings, keptEmpty: removeSessionStartHook(settings, "SessionStart", { keepEmpty: true }).settings, changed: removed.outcome === "removed" };
 * });
 * result.outcome; // "restored"
 */
declare function revertSettingsFile<T extends {
    changed: boolean;
}>(path: string, remove: (settings: Record<string, unknown>) => T & {
    settings: Record<string, unknown>;
    keptEmpty: Record<string, unknown>;
}, options?: {
    dryRun?: boolean;
}): Promise<T & {
    settings: Record<string, unknown>;
    outcome: SettingsRevertOutcome;
    backupRemoved: string | null;
}>;

/**
 * Removes the global store's `.cache/` folder — derived data only (the hooks' injection and
 * ranking caches, git's answers, sessions' ledgers, V8's code cache), all worked out again at the
 * next session start — and says how much it held; null when there was none. The store's own
 * files (the three memory files, history, feedback, promotions, tracking) are never touched.
 *
 * @example
 * removeStoreCache("/home/ada/.claude/iflow/memory");
 * // { path: "/home/ada/.claude/iflow/memory/.cache", files: 14, bytes: 712_344 }
 */
declare function removeStoreCache(globalStoreDir: string): {
    path: string;
    files: number;
    bytes: number;
} | null;

/**
 * Rewrites a text file (an agent's config: JSON, TOML) through `change`, atomically, keeping a
 * backup of the previous version beside it (`<file>.iflow-memory.bak`). `change` gets the file's
 * text, or null when there is none, and may throw to refuse it (a file it cannot parse). A file
 * changed by another program while `change` ran is read again, never written over. A file that
 * existed keeps its mode; a new one is private (0600); a symbolic link stays one (its target is
 * rewritten).
 *
 * @example
 * await updateTextFile("/home/ada/.codex/config.toml", (text) => ({ text: `${text ?? ""}[mcp_servers.x]\n`, changed: true }));
 */
declare function updateTextFile<T extends {
    changed: boolean;
    text: string;
}>(path: string, change: (text: string | null) => T, options?: {
    dryRun?: boolean;
}): Promise<T & {
    backup: string | null;
}>;

/**
 * A time as the memory files write it: ISO-8601 UTC to the second, as the original tools did.
 *
 * @example
 * isoTimestamp(new Date("2026-11-22T10:11:12.345Z")); // "2026-11-22T10:11:12Z"
 */
declare function isoTimestamp(date: Date): string;

/** Ledgers of sessions not heard from for this long are removed. */
declare const SESSION_LEDGER_MAX_AGE_MS: number;
/** Where the entries given to one session are listed: the global store's cache, a file per session. */
declare function sessionLedgerPath(globalStoreDir: string, sessionId: string): string;
/**
 * The content hashes a session has been given so far (by its start and its prompts); empty for
 * a session without a ledger or one that cannot be read.
 *
 * @example
 * readSessionLedger(store, "5f0c…").has("184d72236ce876cf"); // true once injected
 */
declare function readSessionLedger(globalStoreDir: string, sessionId: string): Set<string>;
/**
 * Adds content hashes to a session's ledger: one append of whole lines (concurrent writers never
 * interleave within a line), the folder private. A session's first entry also removes the ledgers
 * of sessions older than `SESSION_LEDGER_MAX_AGE_MS`, once a day at most. Throws on I/O failure; callers treat it as a
 * warning (the injection itself is unaffected).
 *
 * @example
 * recordInSessionLedger(store, sessionId, plan.entries.map((entry) => entry.contentHash));
 */
declare function recordInSessionLedger(globalStoreDir: string, sessionId: string, hashes: readonly string[], now?: number): void;

/** Whose entries a search ranks: the project's bank, the global store, or both. */
type SearchScope = "all" | "project" | "global";
interface SearchMemoryOptions {
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
declare function searchMemory(options: SearchMemoryOptions): Promise<{
    results: RankedEntry[];
    warnings: StoreWarning[];
}>;
/** A project's memory kept in hand for many searches (an MCP server's life). */
interface MemorySearcher {
    /** `searchMemory`, on the files as they are now: re-read only when one of them changed. */
    search(query: string, options: {
        limit: number;
        scope: SearchScope;
    }): Promise<{
        results: RankedEntry[];
        warnings: StoreWarning[];
    }>;
    /** The entries as they are now (local and global, before dedup), and what reading them said. */
    sources(): Promise<MemorySources>;
    /** Settles once what the searches so far read from the files is in the shared cache (see `createMemorySearcher`). */
    saved(): Promise<void>;
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
declare function createMemorySearcher(options: {
    projectRoot: string;
    globalStoreDir: string;
    now?: () => number;
}): MemorySearcher;

/**
 * How long a claim on a session's event holds. Hooks of one event start together (Claude Code
 * runs matching hooks at once), so a second one comes within moments; a later event of the same
 * name in the same session (a second compaction, a resume the next day) is injected again.
 */
declare const SESSION_CLAIM_WINDOW_MS = 60000;
/**
 * Claims the right to inject for one event of one session, so that when two of our hooks run for
 * it — the plugin's and the one `setup claude` registered, started together — exactly one
 * injects. The claim is a marker made with an exclusive create beside the session's ledger (pruned
 * with it): of two processes, only one can make it. A marker older than
 * `SESSION_CLAIM_WINDOW_MS` belongs to an earlier event of the same name and is taken over. True
 * also when no claim can be made (no cache folder): an injection given twice is better than none.
 *
 * @example
 * if (!claimSessionEvent(store, input.session_id, "startup")) return ""; // another hook injects
 */
declare function claimSessionEvent(globalStoreDir: string, sessionId: string, event: string, now?: () => number): boolean;

/** What `sharedRanking` found: the candidates and index a search of everything ranks, and what reading the files said. */
interface SharedRanking {
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
declare function sharedRanking(options: {
    projectRoot: string;
    globalStoreDir: string;
    fingerprint: InjectionFingerprint;
}): Promise<SharedRanking>;

/** The injection history inside a global store: one JSON line per injection. */
declare const HISTORY_FILE = ".history.jsonl";
/** The history's previous generation: the current file is renamed to it when it reaches `HISTORY_MAX_BYTES`. */
declare const HISTORY_ROTATED_FILE = ".history.1.jsonl";
/** A history file is rotated once it holds this many bytes: the history takes at most about twice this (some 10,000 injections). */
declare const HISTORY_MAX_BYTES: number;
/** What the injection history keeps of one injected entry. */
interface HistoryEntry {
    hash: string;
    name: string;
    /** Why relevance chose it: the query's (stemmed) terms it matched, strongest first; absent in today's order. */
    matched?: string[];
}
/** One line of the injection history. */
interface HistoryRecord {
    /** ISO-8601 UTC, to the second. */
    time: string;
    /** The agent's session id; null when the agent gave none. */
    session: string | null;
    project: string;
    /** The SessionStart source (`startup`, `resume`, …), `prompt` (prompt recall) or `search` (MCP search results). */
    event: string;
    /** How the entries were chosen: by relevance to the session, the prompt or the query, or in today's order. */
    ranking: "relevance" | "original";
    entries: HistoryEntry[];
    /** Characters of the injected block (or of the search results returned). */
    chars: number;
    /** The search's query, for `search`: the prompt of a prompt recall is the user's and is not kept. */
    query?: string;
    /** The agent the injection went to (`claude`, `codex`, `gemini`; for an MCP search, from its client's name, else that name); absent in records written before agents were told apart (Claude Code's). */
    agent?: string;
}
/**
 * The history record of an injection.
 *
 * @example
 * createHistoryRecord({ plan, project: "webshop", session: "5f0c…", event: "startup", ranking: "relevance", now: new Date(), agent: "codex" });
 * // { time: "2026-11-23T10:00:00Z", session: "5f0c…", project: "webshop", event: "startup", entries: [{ hash, name, matched }], chars: 4120, agent: "codex", … }
 */
declare function createHistoryRecord(options: {
    plan: Pick<TrackedPlan, "block" | "entries">;
    project: string;
    session: string | null;
    event: string;
    ranking: "relevance" | "original";
    now: Date;
    query?: string;
    agent?: string;
}): HistoryRecord;
/**
 * Appends one record to `<globalStoreDir>/.history.jsonl` as a single `O_APPEND` write of one
 * whole line, so that concurrent sessions never interleave within a line nor overwrite one
 * another's. Once the file reaches `maxBytes` it becomes `.history.1.jsonl` (replacing the
 * previous generation): one process rotates at a time, and only the file it wrote to, so a
 * line is never lost to a rotation — a line written to a file just rotated is in the rotated
 * file, and one written to a file already removed is written again to the current one.
 * Synchronous and cheap (open, write, fstat, close): the hooks call it at every injection.
 * Throws on I/O failure; callers treat that as a warning, never as a reason to withhold an injection.
 *
 * @example
 * appendInjectionHistory(globalStoreDir, createHistoryRecord({ plan, project, session, event: "startup", ranking: "original", now: new Date() }));
 */
declare function appendInjectionHistory(globalStoreDir: string, record: HistoryRecord, options?: {
    maxBytes?: number;
}): void;

/** Which injections to read: those of one session, and/or those that injected one entry. */
interface HistoryFilter {
    session?: string;
    /** A content hash: `sha256:…`, the 16 hex digits, or a prefix of at least 4. */
    entry?: string;
}
/**
 * The injection history of a global store (its rotated generation, then the current file),
 * newest first, filtered. A line that is not a history record (a torn write after a full disk,
 * an edit by hand) is skipped with a warning; a missing history is an empty one.
 *
 * @example
 * const { records } = await readInjectionHistory(globalStoreDir, { entry: "184d" });
 * records[0]; // { time: "2026-11-23T10:00:00Z", session: "5f0c…", event: "startup", entries: [{ hash: "184d72236ce876cf", … }], … }
 */
declare function readInjectionHistory(globalStoreDir: string, filter?: HistoryFilter): Promise<{
    records: HistoryRecord[];
    warnings: string[];
}>;

/** Readers' feedback on entries, one JSON line per vote, in the global store. */
declare const FEEDBACK_FILE = ".feedback.jsonl";
/** The longest note kept with a vote. */
declare const MAX_FEEDBACK_NOTE = 500;
/** One vote as written: `{"ts","hash","helpful","note"?,"project"?,"session"?}`. */
interface FeedbackRecord {
    ts: string;
    hash: string;
    helpful: boolean;
    note?: string;
    project?: string;
    session?: string;
}
/** What the votes on one entry add up to (the ranker reads `helpful` and `unhelpful`). */
interface FeedbackSummary {
    helpful: number;
    unhelpful: number;
    /** When the last vote was cast. */
    last: string;
    /** The latest notes, newest last (at most five). */
    notes: Array<{
        ts: string;
        helpful: boolean;
        note: string;
    }>;
}
/**
 * The feedback recorded so far, by content hash. A missing file is no feedback; a line that is
 * not a vote (torn by a crash, edited by hand) is skipped.
 *
 * @example
 * const feedback = readFeedback(globalStoreDir);
 * rankEntries(entries, query, { feedback });
 * feedback.get("0baa2a5b7c1e9f00"); // { helpful: 0, unhelpful: 2, last: "…", notes: [ … ] }
 */
declare function readFeedback(globalStoreDir: string): Map<string, FeedbackSummary>;

interface RecordFeedbackOptions {
    globalStoreDir: string;
    /** Where project entries are looked up; without it only global entries can be voted on. */
    projectRoot?: string | undefined;
    /** A content hash, its 16 hex digits or a prefix of at least 4 (as `show` takes). */
    hash: string;
    helpful: boolean;
    note?: string | undefined;
    sessionId?: string | undefined;
    now?: Date;
}
/**
 * Records that an entry helped or did not. The entry must exist (in the project's bank or the
 * global store); the vote is appended as one line to `.feedback.jsonl` in the global store, with
 * one write, so that concurrent sessions never tear or lose a vote. Notes are redacted and cut to
 * `MAX_FEEDBACK_NOTE` characters. Feedback moves the entry in every ranking (hooks, search, MCP).
 *
 * @example
 * await recordFeedback({ globalStoreDir, projectRoot, hash: "0baa2a5b", helpful: false, note: "about Python, this is Go" });
 * // { entry: …, record: { ts: "2026-11-23T12:00:00Z", hash: "0baa2a5b7c1e9f00", helpful: false, … } }
 */
declare function recordFeedback(options: RecordFeedbackOptions): Promise<{
    entry: Entry;
    record: FeedbackRecord;
}>;

/** A learning an agent or a person wants kept (MCP `store_memory`). */
interface NewMemory {
    category: Category;
    name: string;
    description: string;
    /** What to do instead (an anti-pattern's `Instead:` line). */
    instead?: string | undefined;
    confidence?: Confidence | undefined;
}
interface StoreMemoryOptions extends NewMemory {
    projectRoot: string;
    globalStoreDir: string;
    /** project (default): the project's knowledge bank; global: the global store, through promotion. */
    scope?: "project" | "global";
    now?: Date;
}
interface StoreMemoryResult {
    /** The content hash of the stored description (secrets redacted). */
    hash: string;
    /**
     * added: a new entry; counted: the same content was there and is observed once more;
     * already-counted: the global store had it from this project already (a provenance counts once).
     */
    action: "added" | "counted" | "already-counted";
    /** The file written (or that already held the entry). */
    file: string;
    scope: "project" | "global";
    name: string;
    category: Category;
    observationCount: number;
    /** Kinds of the secrets replaced by [REDACTED]. */
    redacted: string[];
}
/** Longest name and description a stored memory may have: a learning, not a document. */
declare const MAX_MEMORY_NAME = 200;
declare const MAX_MEMORY_DESCRIPTION = 4000;
/**
 * Keeps a learning. Project scope writes the project's knowledge bank in its own format
 * (`### Anti-Pattern: N` / `### N` / `### Pattern: N`, the description, `Instead:`,
 * `Confidence:`, `Last observed:`, `Observation count:`), under the bank's lock, atomically;
 * when the bank already holds the same content (by content hash, in any of its files), that
 * entry is observed once more instead. Global scope goes through promotion (provenance, dedup,
 * the store's lock). Secrets are redacted before anything is hashed or written.
 *
 * @example
 * await storeMemory({ projectRoot, globalStoreDir, category: "anti-patterns", name: "Unbounded Retries",
 *   description: "Retrying an embedding call without a deadline hangs the session.", instead: "Give every retry loop a deadline" });
 * // { hash: "…", action: "added", file: "/work/webshop/docs/knowledge-bank/anti-patterns.md", … }
 */
declare function storeMemory(options: StoreMemoryOptions): Promise<StoreMemoryResult>;

/**
 * A short, stable name for a text (FNV-1a, 32 bits, as 8 hex digits): for cache file names, where
 * a collision only costs a recomputation (the file itself says what it is for).
 *
 * @example
 * shortHash("/work/webshop"); // "4086712e"
 */
declare function shortHash(text: string): string;

export { ARCHIVE_FILE, type ActiveFeature, CACHE_MAX_AGE_MS, COMMIT_JOURNAL, CONFIG_KEYS, type ConfigRead, DEFAULT_CONFIG, DEFAULT_LESSONS_DIR, DEFAULT_SIGNALS_TIMEOUT_MS, type EntriesRead, type EntryFileCache, type EntryReach, type ExtractReport, FEEDBACK_FILE, type FeedbackRecord, type FeedbackSummary, type FileWrite, GENERATED_MARKER, type GatherSessionSignalsOptions, type GlobalEntryFields, HISTORY_FILE, HISTORY_MAX_BYTES, HISTORY_ROTATED_FILE, type HealthCheck, type HistoryEntry, type HistoryFilter, type HistoryRecord, type InjectMemoryOptions, type InjectMemoryResult, type InjectionFingerprint, type InjectionRanking, type KnowledgeBankRead, LESSONS_STATE_FILE, LOCK_FILE, type LessonsChange, type LessonsRead, type LessonsState, type ListScope, MAX_CHANGED_FILES, MAX_FEEDBACK_NOTE, MAX_FILE_BYTES, MAX_INJECTION_CHARS, MAX_MEMORY_DESCRIPTION, MAX_MEMORY_NAME, MEMORY_CACHE_FORMAT, MEMORY_CACHE_SALT, type MemoryConfig, type MemorySearcher, type MemorySources, type MemoryStats, type NewMemory, PROMOTIONS_FILE, PROMPT_RECALL_MAX_CHARS, type PendingSessionSignals, type PromoteOptions, type PromoteResult, type PromoteSelection, type PromotedEntry, REFRESH_CLAIM_MS, type RankingData, type ReadEntryFilesOptions, type RecordFeedbackOptions, type RefreshClaim, SESSION_CLAIM_WINDOW_MS, SESSION_EVENTS, SESSION_INDEX_MAX_LINES, SESSION_INDEX_SHARE, SESSION_LEDGER_MAX_AGE_MS, SESSION_MATCHES_IN_FULL, SETTLE_MS, type SearchMemoryOptions, type SearchScope, type SessionInjection, type SessionPlan, type SessionSignals, type SettingsRevertOutcome, type SharedRanking, StoreError, type StoreErrorCode, type StoreLockOptions, type StoreMemoryOptions, type StoreMemoryResult, type StoreWarning, type TextFileResult, type TrackedPlan, type TrackingRecord, type UserFileOptions, type UserFileResult, addLesson, appendGlobalEntry, appendInjectionHistory, auditCheck, claimCacheRefresh, claimSessionEvent, closestConfigKey, collectStats, commitFiles, configPath, contestGlobalEntries, createHistoryRecord, createMemorySearcher, createTrackingRecord, decayLessonsInDirectory, decodeRankingCache, diagnoseMemory, encodeRankingCache, entryFileCache, exportRules, extractLessonsFromEvents, findEntries, findOneEntry, findProjectRoot, forgetCachedInjection, forgetGlobalEntry, forgetLesson, formatGlobalEntry, formatWarning, gatherProjectFacts, gatherSessionSignals, globalStoreHeader, injectLessons, injectMemory, injectionCachePath, injectionFingerprint, isMemoryConfig, isoTimestamp, knowledgeBankDir, listEntries, planCachePath, planPromptRecall, planSessionStart, prepareSessionInjection, projectName, promoteEntries, pruneStoreCache, rankingCachePath, readCachedInjection, readCachedInjectionOrEarlier, readCachedPlan, readCachedRanking, readConfig, readEffectiveness, readFeedback, readGlobalStore, readInjectionHistory, readKnowledgeBank, readLastInjection, readLessons, readMemorySources, readSessionLedger, readTextFile, readTextFileSync, readUserFile, readUserFileSync, recordFeedback, recordInSessionLedger, recordMetadata, recordObservation, recoverCommit, releaseCacheRefresh, removeStoreCache, resolveGlobalStoreDir, revertSettingsFile, searchMemory, sessionIndex, sessionLedgerPath, sessionQuery, sharedRanking, shortHash, sourceItems, startSessionSignals, storeCacheDir, storeMemory, tagGlobalEntry, trackInjection, trackedPlan, trackingPath, updateLessons, updateSettingsFile, updateTextFile, withStoreLock, writeCachedInjection, writeCachedPlan, writeFileAtomically, writeTracking };
