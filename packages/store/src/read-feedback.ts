import { join } from "node:path";
import { readTextFileSync } from "./read-text-file.js";

/** Readers' feedback on entries, one JSON line per vote, in the global store. */
export const FEEDBACK_FILE = ".feedback.jsonl";

/** The longest note kept with a vote. */
export const MAX_FEEDBACK_NOTE = 500;

/** One vote as written: `{"ts","hash","helpful","note"?,"project"?,"session"?}`. */
export interface FeedbackRecord {
  ts: string;
  hash: string;
  helpful: boolean;
  note?: string;
  project?: string;
  session?: string;
}

/** What the votes on one entry add up to (the ranker reads `helpful` and `unhelpful`). */
export interface FeedbackSummary {
  helpful: number;
  unhelpful: number;
  /** When the last vote was cast. */
  last: string;
  /** The latest notes, newest last (at most five). */
  notes: Array<{ ts: string; helpful: boolean; note: string }>;
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
export function readFeedback(globalStoreDir: string): Map<string, FeedbackSummary> {
  const summaries = new Map<string, FeedbackSummary>();
  const file = readTextFileSync(join(globalStoreDir, FEEDBACK_FILE));
  if (!("text" in file)) return summaries;
  for (const line of file.text.split("\n")) {
    const record = parseRecord(line);
    if (record === null) continue;
    let summary = summaries.get(record.hash);
    if (summary === undefined) {
      summary = { helpful: 0, unhelpful: 0, last: record.ts, notes: [] };
      summaries.set(record.hash, summary);
    }
    if (record.helpful) summary.helpful++;
    else summary.unhelpful++;
    if (record.ts > summary.last) summary.last = record.ts;
    if (record.note !== undefined) {
      summary.notes.push({ ts: record.ts, helpful: record.helpful, note: record.note });
      if (summary.notes.length > 5) summary.notes.shift();
    }
  }
  return summaries;
}

function parseRecord(line: string): FeedbackRecord | null {
  if (line.trim() === "") return null;
  try {
    const value = JSON.parse(line) as Partial<FeedbackRecord>;
    if (typeof value.hash !== "string" || !/^[0-9a-f]{16}$/.test(value.hash) || typeof value.helpful !== "boolean" || typeof value.ts !== "string") return null;
    return { ts: value.ts, hash: value.hash, helpful: value.helpful, ...(typeof value.note === "string" ? { note: value.note } : {}) };
  } catch {
    return null;
  }
}
