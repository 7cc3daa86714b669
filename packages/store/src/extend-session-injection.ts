import { dirname, join } from "node:path";
import type { Entry } from "@iflow-memory/parser";
import {
  boundSourceLine,
  DEFAULT_INDEX_WEIGHTS,
  entryFieldTerms,
  entryList,
  excludeOtherProjectsEntries,
  extendEntryOrders,
  hasEmptyDescription,
  INDEX_HASH_DIGITS,
  planInjection,
  postingText,
  termPostings,
  weightedCount,
  wordWeights,
  type EntryList,
  type RankingFacts,
  type RelevanceIndexReader,
} from "@iflow-memory/ranker";
import { fileStamp, isTail } from "./caches/entry-file-cache.js";
import type { RankedFile, RankingData, RankingGrowth } from "./caches/ranking-cache-file.js";
import { COMMIT_JOURNAL } from "./commit-files.js";
import { sessionIndex, trackedPlan, type SessionInjection } from "./prepare-session-injection.js";
import { parseAppendedEntries, type MemoryFileRead } from "./read-entry-files.js";
import { readUserFile } from "./read-user-file.js";
import { statOrNull } from "./stat-or-null.js";
import { projectName, type TrackedPlan } from "./write-tracking.js";

/** Learnings appended at most for an injection to be grown by them (`extendSessionInjection`); more, and the files are read. */
export const GROWN_ENTRIES_MAX = 64;

/**
 * The session injection of the memory files as they are now, grown from `earlier` — one cached
 * before a memory file changed, its ranking read back from a cache file with its growth
 * (`RankingGrowth`) — when that file alone changed and only had learnings appended (its first
 * bytes still those kept, a large file's `FileTail`): the file is parsed from its last kept entry
 * on, and the learnings after it are put among the candidates, into today's order and the
 * index, with the others taken as they were. What `prepareSessionInjection` gives for the files,
 * without reading the others or what did not change: a start after a learning was added costs
 * the learning, not the store. Null where it cannot tell it would give the same (then the files
 * are read): another file changed, the file changed before its end or is read whole, a commit
 * under way, a warning, a secret, a learning the same as a candidate or sharing its short hash,
 * more than `GROWN_ENTRIES_MAX` of them.
 *
 * @example
 * const injection = (await extendSessionInjection(earlier, { projectRoot })) ?? (await prepareSessionInjection(options));
 */
export async function extendSessionInjection(earlier: SessionInjection, options: { projectRoot: string; inThread?: boolean }): Promise<SessionInjection | null> {
  const { ranking } = earlier;
  const growth = ranking?.growth;
  if (ranking === undefined || growth === undefined || ranking.entries === undefined || ranking.facts === undefined || ranking.orders.inOrder === undefined || !("read" in ranking.index)) return null;
  const inThread = options.inThread === true;
  const now = Date.now();
  const states = await Promise.all(growth.files.map((file) => fileStamp(file.path, now, inThread)));
  let grown = -1;
  for (let at = 0; at < growth.files.length; at++) {
    const { stamp } = growth.files[at]!;
    if (stamp === undefined) return null;
    if ((states[at]?.stamp ?? null) === stamp) continue;
    if (grown >= 0) return null;
    grown = at;
  }
  const file = growth.files[grown];
  const state = states[grown];
  if (file === undefined || state === null || state === undefined || !isTail(file.tail) || file.end === file.start) return null;
  // A commit's journal beside the files (a promotion under way, or one a killed writer left): the
  // files are read as it commits them (`readCommittedFiles`), not as they lie.
  const journals = await Promise.all([...new Set(growth.files.map((ranked) => dirname(ranked.path)))].map((directory) => statOrNull(join(directory, COMMIT_JOURNAL), { inThread })));
  if (journals.some((journal) => journal !== null)) return null;
  const { tail, last } = file;
  // The file's last entry as it was read, which the parse from it reads again first.
  if (last === undefined) return null;
  const read = await readUserFile(file.path, { inThread });
  if (!("bytes" in read)) return null;
  const appended = parseAppendedEntries(read.bytes, { scope: file.scope, category: file.category, path: file.path }, { tail, last })?.entries;
  if (appended === undefined || appended.length > GROWN_ENTRIES_MAX) return null;
  if ((await fileStamp(file.path, Date.now(), inThread))?.stamp !== state.stamp) return null;
  if (earlier.warnings.some((warning) => warning.path === file.path && (warning.line === undefined || warning.line >= tail.resume.line))) return null;
  const added = (file.scope === "global" ? excludeOtherProjectsEntries(appended, projectName(options.projectRoot)) : appended).map(boundSourceLine);
  if (added.length === 0 || !uniqueShortHashes(added, growth)) return null;
  return grownInjection(earlier, ranking as Required<Pick<RankingData, "entries" | "facts">> & RankingData, growth, file.end, added);
}

/**
 * The memory files of `candidates` (`injectionCandidates` of their entries for `project`), each
 * with where the candidates are that came first from it: deduplication keeps an entry in the
 * place of its first copy, so the candidates of each file's first copies are together, in the
 * files' order — what an entry appended to a file is put after. Null when the candidates are
 * not those first copies, hash for hash (then a ranking is not grown).
 *
 * @example
 * rankedFiles(sources.files, projectName(projectRoot), candidates)?.[2]; // { path: ".../heuristics.md", start: 180, end: 265, … }
 */
export function rankedFiles(files: readonly MemoryFileRead[], project: string, candidates: readonly Pick<Entry, "contentHash">[]): RankedFile[] | null {
  const seen = new Set<string>();
  const firsts: string[] = [];
  const ends: number[] = [];
  for (const file of files) {
    for (const entry of file.scope === "global" ? excludeOtherProjectsEntries(file.entries, project) : file.entries) {
      if (!hasEmptyDescription(entry)) {
        if (seen.has(entry.contentHash)) continue;
        seen.add(entry.contentHash);
      }
      firsts.push(entry.contentHash);
    }
    ends.push(firsts.length);
  }
  if (firsts.length !== candidates.length) return null;
  for (let at = 0; at < firsts.length; at++) if (candidates[at]!.contentHash !== firsts[at]) return null;
  return files.map(({ entries, ...file }, at) => ({ ...file, ...(entries.length === 0 ? {} : { last: JSON.stringify(entries[entries.length - 1]) }), start: at === 0 ? 0 : ends[at - 1]!, end: ends[at]! }));
}

// Whether no two of the candidates and the learnings added share a short hash (`INDEX_HASH_DIGITS`):
// then none is a copy of another (deduplication keeps them all) and the shared prefixes are those
// the candidates shared.
function uniqueShortHashes(added: readonly Entry[], growth: RankingGrowth): boolean {
  const prefixes = new Set(added.map((entry) => entry.contentHash.slice(0, INDEX_HASH_DIGITS)));
  return prefixes.size === added.length && ![...prefixes].some((prefix) => growth.hashStarting(prefix));
}

// The injection of the candidates with `added` at position `at`.
function grownInjection(earlier: SessionInjection, ranking: RankingData & Required<Pick<RankingData, "entries" | "facts">>, growth: RankingGrowth, at: number, added: readonly Entry[]): SessionInjection | null {
  const before = ranking.entries;
  const count = before.length + added.length;
  const to = at + added.length;
  const pick = <T>(old: (position: number) => T, fresh: (entry: Entry) => T) => (position: number) => (position < at ? old(position) : position < to ? fresh(added[position - at]!) : old(position - added.length));
  const entries: EntryList = entryList(count, pick((position) => before.at(position)!, (entry) => entry));
  const { facts: old } = ranking;
  const facts: RankingFacts = {
    observationCount: pick(old.observationCount, (entry) => entry.observationCount),
    confidence: pick(old.confidence, (entry) => entry.confidence),
    contentHash: pick(old.contentHash, (entry) => entry.contentHash),
  };
  const orders = growth.finiteCounts ? extendEntryOrders({ ...ranking.orders, inOrder: ranking.orders.inOrder! }, entries, at, added.length) : null;
  if (orders === null) return null;
  const index = grownIndex(ranking.index as RelevanceIndexReader, growth, at, added);
  const { config } = earlier;
  // Today's plan when it is first read (as `prepareSessionInjection`'s).
  let plan: TrackedPlan | undefined;
  let candidates: Entry[] | undefined;
  return {
    config,
    configWarnings: earlier.configWarnings,
    get plan() {
      return (plan ??= trackedPlan(planInjection({ candidates: entries, limit: config.injectionLimit, maxChars: config.injectionMaxChars, ...sessionIndex(config), ranking: { orders }, sharedHashPrefixes: ranking.sharedHashPrefixes })));
    },
    ranking: {
      get candidates() {
        return (candidates ??= Array.from(entries));
      },
      entries,
      index,
      orders,
      facts,
      sharedHashPrefixes: ranking.sharedHashPrefixes,
    },
    warnings: earlier.warnings,
  };
}

// The index of the candidates with `added` at position `at`: a term's postings are those kept,
// past `at` moved, with the added entries' among them, each count summed again from its words
// (`RankingGrowth.fieldCounts`) with the field weights of every entry's lengths, the added ones'
// among them (the averages moved): what `lazyRelevanceIndex` gives for the whole list.
function grownIndex(kept: RelevanceIndexReader, growth: RankingGrowth, at: number, added: readonly Entry[]): RelevanceIndexReader {
  const documents = kept.documents + added.length;
  const terms = added.map((entry) => entryFieldTerms(entry));
  // Per term of the added entries: which of them (by its place among them) and its words in each field.
  const fresh = new Map<string, number[]>();
  terms.forEach((fields, place) => {
    const met = new Map<string, number[]>();
    fields.forEach((words, field) => {
      for (const term of words) {
        let counts = met.get(term);
        if (counts === undefined) met.set(term, (counts = [0, 0, 0]));
        counts[field]!++;
      }
    });
    for (const [term, counts] of met) {
      let postings = fresh.get(term);
      if (postings === undefined) fresh.set(term, (postings = []));
      postings.push(place, ...counts);
    }
  });
  // Each field's total words, the added entries' with them; an entry's word weights by field,
  // worked out for those a query's terms are in (`weights` at position × 3 + field; -1: not yet).
  const totals = [...growth.totals];
  for (const fields of terms) fields.forEach((words, field) => (totals[field]! += words.length));
  const weightOf = wordWeights(totals, documents, DEFAULT_INDEX_WEIGHTS);
  let weights: Float64Array | undefined;
  const weighed = (position: number): Float64Array => {
    weights ??= new Float64Array(documents * 3).fill(-1);
    if (weights[position * 3]! >= 0) return weights;
    const own = position >= at && position < at + added.length ? terms[position - at]! : null;
    const lengths = own === null ? growth.lengths() : null;
    const kept = (position < at ? position : position - added.length) * 3;
    for (let field = 0; field < 3; field++) weights[position * 3 + field] = weightOf(field, own === null ? lengths![kept + field]! : own[field]!.length);
    return weights;
  };
  // A term's postings: position, count, … — each count in hundredths, as the cache writes it
  // (`scale` 1), or as a ranking reads it (`scale` 100: the hundredths divided, as the numbers
  // read from a cache are), made in one pass: a ranking at 5,000 entries reads thousands.
  const postingsOf = (term: string, scale: 1 | 100): number[] => {
    const own = fresh.get(term);
    const positions = kept.has(term) ? termPostings(kept, term) : [];
    const counts = positions.length === 0 ? null : growth.fieldCounts(term);
    if (counts !== null && counts.length * 2 !== positions.length * 3) throw new Error(`the ranking cache's counts of ${JSON.stringify(term)} do not fit its postings`);
    const postings = new Array<number>(positions.length + (own === undefined ? 0 : own.length / 2));
    let written = 0;
    const add = (position: number, fieldCounts: ArrayLike<number>, from: number) => {
      postings[written++] = position;
      postings[written++] = weightedCount(weighed(position), position, fieldCounts, from) / scale;
    };
    let ownDone = own === undefined;
    const addOwn = () => {
      for (let next = 0; next < own!.length; next += 4) add(at + own![next]!, own!, next + 1);
      ownDone = true;
    };
    for (let next = 0; next < positions.length; next += 2) {
      const position = positions[next]!;
      if (!ownDone && position >= at) addOwn();
      add(position >= at ? position + added.length : position, counts!, (next / 2) * 3);
    }
    if (!ownDone) addOwn();
    return postings;
  };
  const decoded = new Map<string, readonly number[]>();
  const newTerms = [...fresh.keys()].filter((term) => !kept.has(term));
  return {
    version: 2,
    documents,
    vocabulary: kept.vocabulary + newTerms.length,
    has: (term) => kept.has(term) || fresh.has(term),
    terms: () => [...kept.terms(), ...newTerms],
    read: (term) => postingText(postingsOf(term, 1)),
    decodedPostings: (term) => {
      let numbers = decoded.get(term);
      if (numbers === undefined) decoded.set(term, (numbers = postingsOf(term, 100)));
      return numbers;
    },
  };
}
