import type { Entry } from "@iflow-memory/parser";

/**
 * Entries read by their place: an array, or a list that makes an entry when it is first read
 * (a ranking cache of 50,000 entries, of which a plan reads a few thousand). `at(position)`
 * gives the same entry every time, for a position from 0 to `length − 1`; iterating reads them
 * all, in order.
 *
 * @example
 * const list: EntryList = candidates; // an array is one
 * list.at(0)?.name;
 */
export interface EntryList<T extends Entry = Entry> extends Iterable<T> {
  readonly length: number;
  at(position: number): T | undefined;
}

/**
 * `list` as an array: itself when it is one, else every entry read into a new one.
 *
 * @example
 * buildRelevanceIndex(entryArray(candidates));
 */
export function entryArray<T extends Entry>(list: EntryList<T>): readonly T[] {
  return Array.isArray(list) ? (list as readonly T[]) : Array.from(list);
}

/**
 * The list of `length` entries that `entryAt` gives by their place (0 to `length − 1`; `at`
 * gives undefined for any other), read as they are asked for.
 *
 * @example
 * const made: Entry[] = [];
 * entryList(50_000, (position) => (made[position] ??= entryFromColumns(position)));
 */
export function entryList<T extends Entry>(length: number, entryAt: (position: number) => T): EntryList<T> {
  return {
    length,
    at: (position) => (Number.isInteger(position) && position >= 0 && position < length ? entryAt(position) : undefined),
    *[Symbol.iterator]() {
      for (let position = 0; position < length; position++) yield entryAt(position);
    },
  };
}
