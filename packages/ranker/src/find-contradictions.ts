import type { Entry } from "@iflow-memory/parser";

const POSITIVE = new Set(["always", "must", "do", "should", "prefer", "use"]);
const NEGATIVE = new Set(["never", "don't", "dont", "avoid", "not", "no", "shouldn't", "mustn't", "without"]);
const STOPWORDS = new Set(["the", "a", "an", "to", "of", "in", "on", "for", "and", "or", "is", "are", "be", "it", "this", "that", "with", "when", "before", "after", "by", "as", "at", "from", "your", "you", "we"]);

/** Overlap (Jaccard, on content words) from which two entries of opposite polarity are reported. */
export const CONTRADICTION_OVERLAP = 0.6;

/**
 * Pairs of entries that look contradictory: one says always/must/do/prefer, the other
 * never/don't/avoid, about nearly the same thing (≥ 60% of their content words shared once the
 * polarity words are set aside).
 *
 * @example
 * findContradictions([always, never]); // [{ a: always, b: never, overlap: 0.8 }]
 */
export function findContradictions<T extends Pick<Entry, "name" | "description">>(entries: readonly T[]): Array<{ a: T; b: T; overlap: number }> {
  const analysed = entries.map((entry) => {
    // \u2019 is the typographic apostrophe ’ (escaped: the bundles stay ASCII, see relevance/commit-subject-topic.ts).
    const words = `${entry.name} ${entry.description}`.toLowerCase().match(/[a-z][a-z'\u2019-]*/g)?.map((word) => word.replace("’", "'")) ?? [];
    const polarity = words.some((word) => NEGATIVE.has(word)) ? -1 : words.some((word) => POSITIVE.has(word)) ? 1 : 0;
    const content = new Set(words.filter((word) => !POSITIVE.has(word) && !NEGATIVE.has(word) && !STOPWORDS.has(word) && word.length > 2));
    return { entry, polarity, content };
  });
  const pairs: Array<{ a: T; b: T; overlap: number }> = [];
  for (let i = 0; i < analysed.length; i++) {
    for (let j = i + 1; j < analysed.length; j++) {
      const x = analysed[i]!;
      const y = analysed[j]!;
      if (x.polarity === 0 || y.polarity === 0 || x.polarity === y.polarity) continue;
      const common = [...x.content].filter((word) => y.content.has(word)).length;
      const union = new Set([...x.content, ...y.content]).size;
      const overlap = union === 0 ? 0 : common / union;
      if (overlap >= CONTRADICTION_OVERLAP) pairs.push({ a: x.entry, b: y.entry, overlap });
    }
  }
  return pairs;
}

/**
 * Names used by more than one entry with different content (different hashes).
 *
 * @example
 * findDuplicateNames(entries); // [{ name: "Small Steps", entries: [local, global] }]
 */
export function findDuplicateNames<T extends Pick<Entry, "name" | "contentHash">>(entries: readonly T[]): Array<{ name: string; entries: T[] }> {
  const byName = new Map<string, T[]>();
  for (const entry of entries) byName.set(entry.name.toLowerCase(), [...(byName.get(entry.name.toLowerCase()) ?? []), entry]);
  return [...byName.values()].filter((group) => new Set(group.map((entry) => entry.contentHash)).size > 1).map((group) => ({ name: group[0]!.name, entries: group }));
}
