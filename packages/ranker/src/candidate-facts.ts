import type { Entry } from "@iflow-memory/parser";

/**
 * What choosing the candidates of an injection (`injectionCandidates`) reads of every entry
 * besides the fields a ranking reads: whether its description is empty and whether it is marked
 * contested (`dedupeEntries`), and how many provenances its `Source` line names
 * (`boundSourceLine`). An entry read lazily from a
 * cache (a large file's kept entries) carries them under `CANDIDATE_FACTS`, worked out when it
 * was kept, so that choosing candidates does not parse it; any other entry's are read from its
 * fields.
 */
export interface CandidateFacts {
  emptyDescription: boolean;
  /** Whether its metadata has a `Contested with` key (matched case-insensitively). */
  contested: boolean;
  sourceItems: number;
}

/** Where an entry carries its `CandidateFacts` (one symbol for every bundle in the process). */
export const CANDIDATE_FACTS: unique symbol = /* @__PURE__ */ Symbol.for("iflow-memory: candidate facts") as never;

type WithFacts = { [CANDIDATE_FACTS]?: CandidateFacts };

/**
 * Whether `entry.description` is "", from the facts it carries when it has them.
 *
 * @example
 * hasEmptyDescription({ ...entry, description: "" }); // true
 */
export function hasEmptyDescription(entry: Entry): boolean {
  return (entry as WithFacts)[CANDIDATE_FACTS]?.emptyDescription ?? entry.description === "";
}

/**
 * Whether the entry's metadata has a `Contested with` key, from the facts it carries when it has them.
 *
 * @example
 * isContested(entryWithMetadata({ "Contested with": "sha256:0123456789abcdef" })); // true
 */
export function isContested(entry: Entry): boolean {
  return (entry as WithFacts)[CANDIDATE_FACTS]?.contested ?? contestKey(entry) !== undefined;
}

/** The key of the entry's `Contested with` metadata (matched case-insensitively), if it has one. */
export function contestKey(entry: Entry): string | undefined {
  return Object.keys(entry.metadata).find((key) => key.toLowerCase() === "contested with");
}

/**
 * How many provenances (items between ";") the entry's `Source` metadata names, 0 without one;
 * from the facts it carries when it has them.
 *
 * @example
 * sourceItemCount(entryWithSource("infra, Feature #61; webshop, Feature #70")); // 2
 */
export function sourceItemCount(entry: Entry): number {
  const facts = (entry as WithFacts)[CANDIDATE_FACTS];
  if (facts !== undefined) return facts.sourceItems;
  const key = sourceKey(entry);
  return key === undefined ? 0 : sourceItems(entry.metadata[key]!).length;
}

/**
 * The `CandidateFacts` of an entry, as a cache keeps them with it.
 *
 * @example
 * candidateFacts(entry); // { emptyDescription: false, sourceItems: 2 }
 */
export function candidateFacts(entry: Entry): CandidateFacts {
  return (entry as WithFacts)[CANDIDATE_FACTS] ?? { emptyDescription: entry.description === "", contested: contestKey(entry) !== undefined, sourceItems: sourceItemCount(entry) };
}

/** The key of the entry's `Source` metadata (matched case-insensitively), if it has one. */
export function sourceKey(entry: Entry): string | undefined {
  return Object.keys(entry.metadata).find((name) => name.toLowerCase() === "source");
}

/**
 * The provenance items of a `Source` value, trimmed, empty ones left out.
 *
 * @example
 * sourceItems("a, Feature #1; b, Feature #2;"); // ["a, Feature #1", "b, Feature #2"]
 */
export function sourceItems(source: string | undefined): string[] {
  return (source ?? "")
    .split(";")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * The entry as a plain object of its own fields (what a spread copies): an entry read lazily
 * keeps most of its fields behind getters, which `{ ...entry }` would not copy.
 *
 * @example
 * const changed = { ...plainEntry(entry), tags: ["universal"] };
 */
export function plainEntry<T extends Entry>(entry: T): T {
  const lazy = entry as T & { toJSON?: () => T };
  return typeof lazy.toJSON === "function" ? lazy.toJSON() : entry;
}
