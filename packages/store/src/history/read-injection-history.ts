import { join } from "node:path";
import { readTextFile } from "../read-text-file.js";
import { formatWarning, type StoreWarning } from "../store-warning.js";
import { HISTORY_FILE, HISTORY_ROTATED_FILE, type HistoryRecord } from "./append-injection-history.js";

/** Which injections to read: those of one session, and/or those that injected one entry. */
export interface HistoryFilter {
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
export async function readInjectionHistory(globalStoreDir: string, filter: HistoryFilter = {}): Promise<{ records: HistoryRecord[]; warnings: string[] }> {
  const records: HistoryRecord[] = [];
  const warnings: string[] = [];
  const hash = filter.entry?.trim().toLowerCase().replace(/^sha256:/, "");
  for (const name of [HISTORY_ROTATED_FILE, HISTORY_FILE]) {
    const path = join(globalStoreDir, name);
    const file = await readTextFile(path);
    if ("warning" in file) warnings.push(formatWarning(file.warning));
    if (!("text" in file)) continue;
    let skipped = 0;
    for (const line of file.text.split("\n")) {
      if (line.trim() === "") continue;
      const record = parseRecord(line);
      if (record === null) {
        skipped++;
        continue;
      }
      if (filter.session !== undefined && record.session !== filter.session) continue;
      if (hash !== undefined && !record.entries.some((entry) => entry.hash.startsWith(hash))) continue;
      records.push(record);
    }
    if (skipped > 0) warnings.push(`${path}: ${skipped} line${skipped === 1 ? " is" : "s are"} not an injection record; skipped`);
  }
  // Newest first; a line appended to a generation just rotated may be newer than the current file's first.
  const order = records.map((record, index) => ({ record, index }));
  order.sort((a, b) => (a.record.time < b.record.time ? 1 : a.record.time > b.record.time ? -1 : b.index - a.index));
  return { records: order.map(({ record }) => record), warnings };
}

function parseRecord(line: string): HistoryRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object") return null;
  const record = value as Partial<HistoryRecord>;
  const valid =
    typeof record.time === "string" &&
    (record.session === null || typeof record.session === "string") &&
    typeof record.project === "string" &&
    typeof record.event === "string" &&
    typeof record.chars === "number" &&
    Array.isArray(record.entries) &&
    record.entries.every((entry) => entry !== null && typeof entry === "object" && typeof entry.hash === "string" && typeof entry.name === "string");
  if (!valid) return null;
  return { ...record, ranking: record.ranking === "relevance" ? "relevance" : "original" } as HistoryRecord;
}
