import type { Entry } from "@iflow-memory/parser";
import { plainEntry, sourceItemCount, sourceItems, sourceKey } from "./candidate-facts.js";

/** Provenances a `Source` line shows in an injection at most: the most recent ones (the file keeps all). */
export const SOURCE_SHOWN = 3;

/**
 * The entry as an injection shows it: a `Source` line of more than `SOURCE_SHOWN` provenances
 * (a universal entry observed by project after project, feature after feature, reaches 1,000
 * characters and more) cut to the most recent ones and a count of the rest. Nothing is lost: the
 * store's file keeps every provenance, and promotion, `show` and the MCP server's `get_memory`
 * read it there. Any other entry is returned as it is.
 *
 * @example
 * boundSourceLine(entry).metadata.Source; // "infra, Feature #61; webshop, Feature #70; api, Feature #12 (and 14 earlier)"
 */
export function boundSourceLine<T extends Entry>(entry: T): T {
  // Counted first (an entry read lazily carries the count): most entries are returned unread.
  if (sourceItemCount(entry) <= SOURCE_SHOWN) return entry;
  const key = sourceKey(entry)!;
  const items = sourceItems(entry.metadata[key]!);
  const shown = `${items.slice(-SOURCE_SHOWN).join("; ")} (and ${items.length - SOURCE_SHOWN} earlier)`;
  const lines = entry.metadataText.split("\n");
  const at = lines.findIndex((line) => line.toLowerCase().startsWith(`- ${key.toLowerCase()}:`));
  if (at < 0) return entry;
  lines[at] = `- ${key}: ${shown}`;
  return { ...plainEntry(entry), metadataText: lines.join("\n"), metadata: { ...entry.metadata, [key]: shown } };
}
