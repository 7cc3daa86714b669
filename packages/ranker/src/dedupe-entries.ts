import type { Entry } from "@iflow-memory/parser";
import { contestKey, hasEmptyDescription, isContested, plainEntry } from "./candidate-facts.js";

/**
 * Removes entries whose content hash was already seen, in input order (local before global).
 * A later duplicate replaces the kept entry only if its observation count is strictly greater,
 * and then takes the kept one's position. An empty description matches nothing. A "Contested
 * with" mark on the dropped copy is carried over to the kept one.
 *
 * @example
 * dedupeEntries([localCopy, globalCopyWithHigherCount]); // [globalCopyWithHigherCount]
 */
export function dedupeEntries<T extends Entry>(entries: readonly T[]): T[] {
  const kept: T[] = [];
  const indexByHash = new Map<string, number>();
  for (const entry of entries) {
    if (hasEmptyDescription(entry)) {
      kept.push(entry);
      continue;
    }
    const index = indexByHash.get(entry.contentHash);
    if (index === undefined) {
      indexByHash.set(entry.contentHash, kept.length);
      kept.push(entry);
    } else if (entry.observationCount > kept[index]!.observationCount) {
      kept[index] = carryContest(entry, kept[index]!);
    } else {
      kept[index] = carryContest(kept[index]!, entry);
    }
  }
  return kept;
}

// A contest marked on one copy of a learning (the global one, by `iflow-memory contest`) must
// show whichever copy is injected.
function carryContest<T extends Entry>(kept: T, dropped: T): T {
  // Asked first (an entry read lazily carries the answer): most copies are returned unread.
  if (!isContested(dropped) || isContested(kept)) return kept;
  const key = contestKey(dropped)!;
  const value = dropped.metadata[key]!;
  const line = `- ${key}: ${value}`;
  return { ...plainEntry(kept), metadata: { ...kept.metadata, [key]: value }, metadataText: kept.metadataText === "" ? line : `${kept.metadataText}\n${line}` };
}
