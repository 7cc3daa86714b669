import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { redactSecrets, type Entry } from "@iflow-memory/parser";
import { findOneEntry, listEntries } from "./manage-global-store.js";
import { FEEDBACK_FILE, MAX_FEEDBACK_NOTE, type FeedbackRecord } from "./read-feedback.js";
import { StoreError } from "./store-error.js";
import { isoTimestamp } from "./iso-timestamp.js";
import { projectName } from "./write-tracking.js";

export interface RecordFeedbackOptions {
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
export async function recordFeedback(options: RecordFeedbackOptions): Promise<{ entry: Entry; record: FeedbackRecord }> {
  const { entries } = await listEntries({ projectRoot: options.projectRoot ?? options.globalStoreDir, globalStoreDir: options.globalStoreDir, scope: options.projectRoot === undefined ? "global" : "all" });
  const entry = findOneEntry(entries, options.hash, { action: `cannot record feedback on "${options.hash}"`, notFound: "no entry has that hash; search or list to find an entry's hash" });
  const note = options.note === undefined ? "" : redactSecrets(options.note.replace(/\s+/g, " ").trim()).text.slice(0, MAX_FEEDBACK_NOTE);
  const record: FeedbackRecord = {
    ts: isoTimestamp(options.now ?? new Date()),
    hash: entry.contentHash,
    helpful: options.helpful,
    ...(note === "" ? {} : { note }),
    ...(options.projectRoot === undefined ? {} : { project: projectName(options.projectRoot) }),
    ...(options.sessionId === undefined || options.sessionId === "" ? {} : { session: options.sessionId.slice(0, 200) }),
  };
  const path = join(options.globalStoreDir, FEEDBACK_FILE);
  try {
    mkdirSync(options.globalStoreDir, { recursive: true, mode: 0o700 });
    // One line, one write, O_APPEND: concurrent writers each add a whole line.
    appendFileSync(path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new StoreError("STORE_WRITE_FAILED", `cannot record feedback in ${path}: ${(error as Error).message}; check that the global store is writable`, { cause: error });
  }
  return { entry, record };
}
