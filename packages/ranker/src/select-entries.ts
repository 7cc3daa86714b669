import type { Category, Entry } from "@iflow-memory/parser";
import { entryArray, type EntryList } from "./entry-list.js";
import { sortEntries } from "./sort-entries.js";

/** Category priority for filling and for the memory block: anti-patterns first, patterns last. */
export const CATEGORY_PRIORITY: readonly Category[] = ["anti-patterns", "heuristics", "patterns"];

const GUARANTEED_PER_CATEGORY = 3;

/**
 * Chooses up to `limit` entries (`-1`: no limit, `0`: none), returned in selection order
 * (highest priority first). Each category is sorted by `sortEntries`. When the limit allows
 * three per non-empty category, each first gets min(3, size), in the order anti-patterns →
 * heuristics → patterns; the remaining slots are then filled in that same priority order.
 * Otherwise the fill is by priority alone. `sorted`, when given, is `entries` already in that
 * order (`sortEntries` of all of them, worked out once for many plans): nothing is sorted then,
 * and it is read no further than the selection needs.
 *
 * @example
 * selectEntries(entries, 20).length; // ≤ 20
 */
export function selectEntries<T extends Entry>(entries: EntryList<T>, limit: number, sorted?: EntryList<T>): T[] {
  const total = entries.length;
  const slots = limit < 0 ? total : Math.min(limit, total);
  // No category can give more than `slots` entries: only those are put in order.
  const buckets = sorted === undefined ? sortedByCategory(entryArray(entries), slots) : firstOfEach(sorted, slots);
  // (With no slot, every bucket is empty, and so is the selection.)
  const nonEmpty = buckets.filter((bucket) => bucket.length > 0).length;

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

// The first `count` of each category of `entries`, sorted (`sortEntries`), by `CATEGORY_PRIORITY`.
function sortedByCategory<T extends Entry>(entries: readonly T[], count: number): T[][] {
  return CATEGORY_PRIORITY.map((category) => sortEntries(entries.filter((entry) => entry.category === category), count));
}

// The first `count` of each category in `sorted` (priority order), by `CATEGORY_PRIORITY`.
function firstOfEach<T extends Entry>(sorted: EntryList<T>, count: number): T[][] {
  const buckets = CATEGORY_PRIORITY.map((): T[] => []);
  if (count === 0) return buckets;
  let full = 0;
  // Read by place, as far as the buckets need: a list may make each entry as it is read.
  for (let place = 0; place < sorted.length; place++) {
    const entry = sorted.at(place)!;
    const bucket = buckets[CATEGORY_PRIORITY.indexOf(entry.category)]!;
    if (bucket.length >= count) continue;
    bucket.push(entry);
    if (bucket.length === count && ++full === buckets.length) break;
  }
  return buckets;
}
