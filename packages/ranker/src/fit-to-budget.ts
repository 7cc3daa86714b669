import { serializeEntry, type Category, type Entry } from "@iflow-memory/parser";
import { CATEGORY_TITLES, MEMORY_BLOCK_FOOTER, MEMORY_BLOCK_HEADER } from "./format-memory-block.js";

export interface BudgetResult<T> {
  /** The entries that fit, in the given (priority) order. */
  kept: T[];
  /** The entries left out, in the given order. */
  dropped: T[];
}

/**
 * Keeps entries, in priority order, while the memory block they make stays within `maxChars`
 * characters; an entry that would overflow it is left out whole (never cut in half) and the
 * next, smaller ones still get their chance. `maxChars` null: everything is kept. `capOf`, when
 * given, may hold an entry to a smaller size of the block than `maxChars` (room kept for what
 * follows the entries).
 *
 * @example
 * fitToBudget(selectEntries(entries, 20), 9000).kept; // formatMemoryBlock(kept).length ≤ 9000
 */
export function fitToBudget<T extends Pick<Entry, "category" | "headerLine" | "description" | "metadataText">>(
  entries: readonly T[],
  maxChars: number | null,
  capOf?: (entry: T) => number,
): BudgetResult<T> {
  if (maxChars === null) return { kept: [...entries], dropped: [] };
  const kept: T[] = [];
  const dropped: T[] = [];
  const categoriesUsed = new Set<Category>();
  let size = MEMORY_BLOCK_HEADER.length + MEMORY_BLOCK_FOOTER.length;
  for (const entry of entries) {
    const title = categoriesUsed.has(entry.category) ? 0 : CATEGORY_TITLES[entry.category].length;
    const cost = title + serializeEntry(entry).length + 1;
    if (size + cost <= (capOf === undefined ? maxChars : Math.min(maxChars, capOf(entry)))) {
      size += cost;
      categoriesUsed.add(entry.category);
      kept.push(entry);
    } else {
      dropped.push(entry);
    }
  }
  return { kept, dropped };
}
