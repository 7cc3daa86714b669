import type { Confidence, Entry } from "@iflow-memory/parser";
import { lastObservedTime } from "./last-observed-time.js";

const CONFIDENCE_RANK: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };

/**
 * Entries in priority order (a new array; stable): observation count desc, confidence desc
 * (high > medium > low), then recency desc — the `Last observed` time when it parses as
 * ISO-8601 (dated entries outrank undated ones), else the file position (later is newer).
 *
 * @example
 * sortEntries(entries).map((entry) => entry.observationCount); // [5, 3, 3, 1, …]
 */
export function sortEntries<T extends Entry>(entries: readonly T[]): T[] {
  const keyed = entries.map((entry, index) => ({
    entry,
    index,
    count: entry.observationCount,
    confidence: CONFIDENCE_RANK[entry.confidence],
    time: lastObservedTime(entry.lastObserved),
    position: entry.filePosition,
  }));
  keyed.sort((a, b) => {
    if (a.count !== b.count) return b.count - a.count;
    if (a.confidence !== b.confidence) return b.confidence - a.confidence;
    if (a.time !== null && b.time !== null) {
      if (a.time !== b.time) return b.time - a.time;
    } else if (a.time !== null) return -1;
    else if (b.time !== null) return 1;
    else if (a.position !== b.position) return b.position - a.position;
    return a.index - b.index;
  });
  return keyed.map((item) => item.entry);
}
