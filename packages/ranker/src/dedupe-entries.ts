import type { Entry } from "@iflow-memory/parser";

/**
 * Removes entries whose content hash was already seen, in input order (local before global).
 * A later duplicate replaces the kept entry only if its observation count is strictly greater,
 * and then takes the kept one's position. An empty description matches nothing.
 *
 * @example
 * dedupeEntries([localCopy, globalCopyWithHigherCount]); // [globalCopyWithHigherCount]
 */
export function dedupeEntries<T extends Entry>(entries: readonly T[]): T[] {
  const kept: T[] = [];
  const indexByHash = new Map<string, number>();
  for (const entry of entries) {
    if (entry.description === "") {
      kept.push(entry);
      continue;
    }
    const index = indexByHash.get(entry.contentHash);
    if (index === undefined) {
      indexByHash.set(entry.contentHash, kept.length);
      kept.push(entry);
    } else if (entry.observationCount > kept[index]!.observationCount) {
      kept[index] = entry;
    }
  }
  return kept;
}
