import type { Confidence, Entry } from "@iflow-memory/parser";
import type { EntryList } from "./entry-list.js";
import { firstInOrder } from "./first-in-order.js";
import { lastObservedTime } from "./last-observed-time.js";

const CONFIDENCE_RANK: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };

/**
 * Entries in priority order (a new array; stable): observation count desc, confidence desc
 * (high > medium > low), then recency desc — the `Last observed` time when it parses as
 * ISO-8601 (dated entries outrank undated ones), else the file position (later is newer).
 * With `limit`, only the first `limit` of that order: a session start wants twenty entries of a
 * bank that may hold tens of thousands, and those are found without sorting the rest.
 *
 * @example
 * sortEntries(entries).map((entry) => entry.observationCount); // [5, 3, 3, 1, …]
 * sortEntries(entries, 2).map((entry) => entry.observationCount); // [5, 3]
 */
export function sortEntries<T extends Entry>(entries: readonly T[], limit = entries.length): T[] {
  const count = Math.max(0, Math.min(limit, entries.length));
  if (count === 0) return [];
  return firstInOrder(entries.map(priorityKey), count, comparePriority).map((item) => item.entry);
}

/**
 * Where `a` comes against `b` in today's order (`sortEntries`): negative before it, positive after
 * it, 0 when only their places in the list would tell (or a count is not a finite number, which
 * the order compares otherwise), for a caller that must know without sorting the list.
 *
 * @example
 * compareInTodaysOrder(provenEntry, learningSeenOnce); // < 0
 */
export function compareInTodaysOrder(a: Entry, b: Entry): number {
  const [first, second] = [priorityKey(a, 0), priorityKey(b, 0)];
  if (!Number.isFinite(first.count) || !Number.isFinite(second.count)) return 0;
  return comparePriority(first, second);
}

interface PriorityKey<T> {
  entry: T;
  index: number;
  count: number;
  confidence: number;
  time: number | null;
  position: number;
}

function priorityKey<T extends Entry>(entry: T, index: number): PriorityKey<T> {
  return {
    entry,
    index,
    count: entry.observationCount,
    confidence: CONFIDENCE_RANK[entry.confidence],
    time: lastObservedTime(entry.lastObserved),
    position: entry.filePosition,
  };
}

// Negative when `a` comes first. Never 0 for two different entries (the input order decides last).
function comparePriority<T>(a: PriorityKey<T>, b: PriorityKey<T>): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.confidence !== b.confidence) return b.confidence - a.confidence;
  return compareRecency(a, b);
}

// `comparePriority` of two entries alike but for their recency: `Last observed`, else file position.
function compareRecency<T>(a: PriorityKey<T>, b: PriorityKey<T>): number {
  if (a.time !== null && b.time !== null) {
    if (a.time !== b.time) return b.time - a.time;
  } else if (a.time !== null) return -1;
  else if (b.time !== null) return 1;
  else if (a.position !== b.position) return b.position - a.position;
  return a.index - b.index;
}

/** Each entry's place in today's order (`sortEntries`) and in recency order, by the entry's index. */
export interface EntryOrders {
  order: Int32Array;
  recency: Int32Array;
  /**
   * The entries' indexes in today's order (where `order` gives each its place, this gives each
   * place its entry), when worked out: a plan then reads today's first entries, and no others.
   */
  inOrder?: Int32Array;
}

/**
 * The places of `entries` in today's order (`sortEntries`) and in the order of recency alone (as
 * `sortEntries` puts entries that differ in nothing else), for `rankEntries`' `orders` when the
 * same entries are ranked for many queries. Each entry's keys are read once for both.
 *
 * @example
 * const orders = entryOrders(candidates);
 * orders.order[0]; // 0 when candidates[0] comes first in today's order
 */
export function entryOrders(entries: readonly Entry[]): EntryOrders {
  const byRecency = entries.map(priorityKey).sort(compareRecency);
  const inToday = byPriority(byRecency);
  return { order: placesOf(inToday), recency: placesOf(byRecency), inOrder: Int32Array.from(inToday, (key) => key.index) };
}

/**
 * `entryOrders` of a list grown by `added` entries at `at` (positions `at` to `at + added − 1` of
 * `entries`, the list as it is now), from `orders`, those of the list before: the entries it held
 * keep their order among themselves (their places, and their positions past `at` moved by
 * `added`), and each added entry is put in its place by the same comparisons, with a few of the
 * others' keys read (a binary search each): what `entryOrders(entries)` gives, without reading
 * every entry's keys or sorting — where every observation count is a finite number (else
 * `entryOrders` compares otherwise; the caller knows it of the list before, and null is given
 * when an added entry's is not).
 *
 * @example
 * extendEntryOrders(orders, [...before.slice(0, 3), learning, ...before.slice(3)], 3, 1); // as entryOrders of that list
 */
export function extendEntryOrders(orders: Required<EntryOrders>, entries: EntryList, at: number, added: number): Required<EntryOrders> | null {
  const count = entries.length;
  // The keys of the entries read, by position (a search reads a few dozen of thousands).
  const keys = new Map<number, PriorityKey<Entry>>();
  const keyOf = (position: number) => {
    let key = keys.get(position);
    if (key === undefined) keys.set(position, (key = priorityKey(entries.at(position)!, position)));
    return key;
  };
  const fresh = Array.from({ length: added }, (_, place) => at + place);
  if (fresh.some((position) => !Number.isFinite(keyOf(position).count))) return null;
  // The positions in an order: those of the list before (`sorted`, moved), with the added ones
  // among them, each after those `compare` puts before it.
  const merged = (sorted: Int32Array, compare: (a: PriorityKey<Entry>, b: PriorityKey<Entry>) => number): Int32Array => {
    const ordered = [...fresh].sort((a, b) => compare(keyOf(a), keyOf(b)));
    const before = ordered.map((position) => {
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        const other = sorted[middle]!;
        if (compare(keyOf(position), keyOf(other >= at ? other + added : other)) > 0) low = middle + 1;
        else high = middle;
      }
      return low;
    });
    const result = new Int32Array(count);
    let made = 0;
    let next = 0;
    for (let place = 0; place < sorted.length; place++) {
      while (next < ordered.length && before[next] === place) result[made++] = ordered[next++]!;
      const position = sorted[place]!;
      result[made++] = position >= at ? position + added : position;
    }
    while (next < ordered.length) result[made++] = ordered[next++]!;
    return result;
  };
  const recency = merged(inverse(orders.recency), compareRecency);
  const inOrder = merged(orders.inOrder, comparePriority);
  return { order: inverse(inOrder), recency: inverse(recency), inOrder };
}

// Each place's position, from each position's place (or the other way round).
function inverse(places: Int32Array): Int32Array {
  const positions = new Int32Array(places.length);
  for (let position = 0; position < places.length; position++) positions[places[position]!] = position;
  return positions;
}

// Keys in recency order (`compareRecency`) put in today's order (`comparePriority`): grouped, in
// that order, by observation count and confidence — what `comparePriority` compares before
// recency — without comparing thousands of keys again (a bank holds a few counts).
function byPriority<T>(byRecency: readonly PriorityKey<T>[]): PriorityKey<T>[] {
  const groups = new Map<number, PriorityKey<T>[][]>();
  for (const key of byRecency) {
    // A count or a confidence comparePriority would not order as numbers: compared, then.
    if (!Number.isFinite(key.count) || !(key.confidence >= 1 && key.confidence <= 3)) return [...byRecency].sort(comparePriority);
    let group = groups.get(key.count);
    if (group === undefined) groups.set(key.count, (group = [[], [], [], []]));
    group[key.confidence]!.push(key);
  }
  const ordered: PriorityKey<T>[] = [];
  for (const count of [...groups.keys()].sort((a, b) => b - a)) for (const confidence of [3, 2, 1]) for (const key of groups.get(count)![confidence]!) ordered.push(key);
  return ordered;
}

function placesOf<T>(sorted: readonly PriorityKey<T>[]): Int32Array {
  const places = new Int32Array(sorted.length);
  sorted.forEach((key, place) => (places[key.index] = place));
  return places;
}
