import { serializeEntry, type Category, type Entry } from "@iflow-memory/parser";
import { CATEGORY_PRIORITY } from "./select-entries.js";

export const MEMORY_BLOCK_HEADER = "## Engineering Memory (from knowledge bank)\n\n";
export const MEMORY_BLOCK_FOOTER = "---\n";

export const CATEGORY_TITLES: Record<Category, string> = {
  "anti-patterns": "### Anti-Patterns to Avoid\n",
  heuristics: "### Heuristics\n",
  patterns: "### Patterns to Follow\n",
};

type Formattable = Pick<Entry, "category" | "headerLine" | "description" | "metadataText">;

/**
 * The memory block exactly as the original printed it: a header, then per category (anti-patterns,
 * heuristics, patterns; empty ones omitted) a title and its entries in the given order, each
 * followed by a blank line, then `---`. No entries → "". `index` (`formatMemoryIndex`), when
 * given, stands after the entries, before `---`.
 *
 * @example
 * formatMemoryBlock([entry]);
 * // "## Engineering Memory (from knowledge bank)\n\n### Patterns to Follow\n### Pattern: …\n…\n\n---\n"
 */
export function formatMemoryBlock(entries: readonly Formattable[], index = ""): string {
  if (entries.length === 0) return "";
  let block = MEMORY_BLOCK_HEADER;
  for (const category of CATEGORY_PRIORITY) {
    const inCategory = entries.filter((entry) => entry.category === category);
    if (inCategory.length === 0) continue;
    block += CATEGORY_TITLES[category];
    for (const entry of inCategory) block += `${serializeEntry(entry)}\n`;
  }
  return block + index + MEMORY_BLOCK_FOOTER;
}
