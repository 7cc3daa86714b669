import type { Category, Entry } from "@iflow-memory/parser";
import { sortEntries } from "./sort-entries.js";

/** Category priority for filling and for the memory block: anti-patterns first, patterns last. */
export const CATEGORY_PRIORITY: readonly Category[] = ["anti-patterns", "heuristics", "patterns"];

const GUARANTEED_PER_CATEGORY = 3;

/**
 * Chooses up to `limit` entries (`-1`: no limit, `0`: none), returned in selection order
 * (highest priority first). Each category is sorted by `sortEntries`. When the limit allows
 * three per non-empty category, each first gets min(3, size), in the order anti-patterns →
 * heuristics → patterns; the remaining slots are then filled in that same priority order.
 * Otherwise the fill is by priority alone.
 *
 * @example
 * selectEntries(entries, 20).length; // ≤ 20
 */
export function selectEntries<T extends Entry>(entries: readonly T[], limit: number): T[] {
  const categories = CATEGORY_PRIORITY.map((category) => entries.filter((entry) => entry.category === category));
  const total = categories.reduce((sum, members) => sum + members.length, 0);
  const slots = limit < 0 ? total : Math.min(limit, total);
  const nonEmpty = categories.filter((members) => members.length > 0).length;
  // No category can give more than `slots` entries: only those are put in order.
  const buckets = categories.map((members) => sortEntries(members, slots));

  const taken = buckets.map(() => 0);
  const selected: T[] = [];
  const take = (bucketIndex: number, count: number) => {
    const bucket = buckets[bucketIndex]!;
    const from = taken[bucketIndex]!;
    const until = Math.min(bucket.length, from + count, from + (slots - selected.length));
    for (let index = from; index < until; index++) selected.push(bucket[index]!);
    taken[bucketIndex] = Math.max(from, until);
  };

  if (slots >= GUARANTEED_PER_CATEGORY * nonEmpty) {
    buckets.forEach((_, bucketIndex) => take(bucketIndex, GUARANTEED_PER_CATEGORY));
  }
  buckets.forEach((bucket, bucketIndex) => take(bucketIndex, bucket.length));
  return selected;
}
