import { closeSync, fstatSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { isoTimestamp } from "../iso-timestamp.js";
import type { TrackedPlan } from "../write-tracking.js";

/** The injection history inside a global store: one JSON line per injection. */
export const HISTORY_FILE = ".history.jsonl";
/** The history's previous generation: the current file is renamed to it when it reaches `HISTORY_MAX_BYTES`. */
export const HISTORY_ROTATED_FILE = ".history.1.jsonl";
/** A history file is rotated once it holds this many bytes: the history takes at most about twice this (some 10,000 injections). */
export const HISTORY_MAX_BYTES = 4 * 1024 * 1024;
const ROTATION_LOCK = ".history.rotate";
// A rotation takes microseconds: a claim this old was left by a process that died in it.
const ROTATION_LOCK_STALE_MS = 10_000;

/** What the injection history keeps of one injected entry. */
export interface HistoryEntry {
  hash: string;
  name: string;
  /** Why relevance chose it: the query's (stemmed) terms it matched, strongest first; absent in today's order. */
  matched?: string[];
}

/** One line of the injection history. */
export interface HistoryRecord {
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
export function createHistoryRecord(options: {
  plan: Pick<TrackedPlan, "block" | "entries">;
  project: string;
  session: string | null;
  event: string;
  ranking: "relevance" | "original";
  now: Date;
  query?: string;
  agent?: string;
}): HistoryRecord {
  return {
    time: isoTimestamp(options.now),
    session: options.session,
    project: options.project,
    event: options.event,
    ranking: options.ranking,
    entries: options.plan.entries.map((entry) => ({
      hash: entry.contentHash,
      name: entry.name,
      ...(entry.matchedTerms === undefined ? {} : { matched: entry.matchedTerms }),
    })),
    chars: options.plan.block.length,
    ...(options.query === undefined ? {} : { query: options.query }),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
  };
}

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
export function appendInjectionHistory(globalStoreDir: string, record: HistoryRecord, options: { maxBytes?: number } = {}): void {
  const maxBytes = options.maxBytes ?? HISTORY_MAX_BYTES;
  const path = join(globalStoreDir, HISTORY_FILE);
  const line = Buffer.from(`${JSON.stringify(record)}\n`, "utf8");
  // Written again only if the file was removed under the write; twice in a row would take two
  // whole rotations within microseconds.
  for (let attempt = 0; attempt < 3; attempt++) {
    const descriptor = openAppending(path);
    let written: Stats;
    try {
      const count = writeSync(descriptor, line);
      if (count !== line.length) {
        // A short write (a full disk): end the torn line, so that the next one starts whole.
        writeSync(descriptor, "\n");
        throw new Error(`cannot append to ${path}: only ${count} of ${line.length} bytes written`);
      }
      written = fstatSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    if (written.nlink > 0) {
      if (written.size >= maxBytes) rotateHistory(path, written);
      return;
    }
  }
}

function openAppending(path: string): number {
  try {
    return openSync(path, "a", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return openSync(path, "a", 0o600);
  }
}

// Renames the history file this process wrote to, if it is still the current one: a second
// process that saw the same full file finds the claim taken, or the file already replaced.
function rotateHistory(path: string, written: Stats): void {
  const directory = dirname(path);
  const claim = join(directory, ROTATION_LOCK);
  try {
    closeSync(openSync(claim, "wx", 0o600));
  } catch {
    const age = Date.now() - (statSync(claim, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > ROTATION_LOCK_STALE_MS) unlinkSync(claim);
    return;
  }
  try {
    const current = statSync(path, { throwIfNoEntry: false });
    if (current !== undefined && current.ino === written.ino && current.dev === written.dev) renameSync(path, join(directory, HISTORY_ROTATED_FILE));
  } finally {
    unlinkSync(claim);
  }
}
