import type { Entry } from "@iflow-memory/parser";
import { boundSourceLine } from "./bound-source-line.js";
import { entryArray, entryList, type EntryList } from "./entry-list.js";
import { dedupeEntries } from "./dedupe-entries.js";
import { excludeOtherProjectsEntries } from "./exclude-other-projects-entries.js";
import { fitToBudget } from "./fit-to-budget.js";
import { formatMemoryBlock } from "./format-memory-block.js";
import { formatIndexLine, formatMemoryIndex, INDEX_CATEGORY_TITLES, LONGEST_INDEX_HEADING, shortHashes, type MemoryFetch } from "./format-memory-index.js";
import { rankEntries, rankingOf, SEARCH_FLOOR, type RankedEntry, type Ranking, type RankingOptions } from "./relevance/rank-entries.js";
import { queryTerms, type RelevanceQuery } from "./relevance/query-terms.js";
import { selectEntries } from "./select-entries.js";
import { sortEntries, type EntryOrders } from "./sort-entries.js";

/** Where an injection chooses from: the files' entries, or what `injectionCandidates` made of them (e.g. cached). */
export type InjectionSource =
  | {
      /** The project's entries, files read in the order anti-patterns, patterns, heuristics. */
      local: readonly Entry[];
      /** The global store's entries, same file order; [] when the global store is off. */
      global: readonly Entry[];
      /** The project's name, to keep its own project-specific global entries. */
      project: string;
    }
  | {
      /** Read by their place, and only those a plan ranks or shows when `ranking.orders` gives today's order (`inOrder`). */
      candidates: EntryList;
    };

export type InjectionRequest = InjectionSource & {
  /** Entries at most; -1 no limit, 0 none. */
  limit: number;
  /** Characters the block may take at most; null: no budget (the original's output). */
  maxChars: number | null;
  /**
   * What the session is about. With terms, the entries that match it are injected first, best
   * first (`rankEntries`: nothing below the relevance floor counts as a match); then, with
   * `fillWithCore`, today's order fills the limit and the budget, else nothing does. Absent, or
   * without a single term: today's order.
   */
  query?: RelevanceQuery;
  /**
   * With a query: after the entries that match it, the proven core (today's order: observation
   * count, confidence, recency, three per category) fills the limit and the budget, so that a
   * session start is never empty while there are entries. False (the default): only what matches.
   */
  fillWithCore?: boolean;
  /**
   * After the entries in full, while the budget allows, an index of the next ones by the same
   * order (those that match first, then today's order where the core fills): a line each with
   * the short content hash and the title, under a heading that says how to fetch the full text
   * (`fetch`). The entries in full may take at most `1 − share` of the budget for the core (never
   * for an entry that matches), so that the index gets room; `maxLines` bounds it. Absent: no index.
   */
  index?: InjectionIndex;
  /** Options of `rankEntries`, e.g. a cached index of `injectionCandidates(request)`. */
  ranking?: RankingOptions;
  /** Content hashes never to choose by relevance, e.g. what this session was given already. */
  exclude?: ReadonlySet<string>;
  /**
   * `sharedHashPrefixes` of the candidates, when worked out beforehand (with their index): the
   * index's short hashes then need not look at every candidate. With `ranking.orders`, a plan
   * sorts nothing and reads no candidate that it neither ranks nor shows.
   */
  sharedHashPrefixes?: readonly string[];
};

/** How a block indexes the entries it does not show in full (`InjectionRequest.index`). */
export interface InjectionIndex {
  /** What the heading tells the agent to fetch an entry with. */
  fetch: MemoryFetch;
  /** 0–1: the share of the budget kept from the core's entries in full, for the index. */
  share: number;
  /** Lines at most. */
  maxLines: number;
  /**
   * Entries that match the query shown in full at most; the next ones lead the index, where the
   * model reads their titles and fetches what bears on its task. Absent: as many as the limit.
   */
  matchesInFull?: number;
}

export interface InjectionPlan {
  /** The injected entries in selection order (highest priority first); the block groups them by category. */
  entries: Entry[];
  /** The memory block; "" when nothing is selected. */
  block: string;
  /** Selected entries left out to stay within `maxChars`. */
  droppedForBudget: number;
  /** The entries the block names in its index (title and hash only), in order; [] without an index. */
  indexed: Entry[];
  sources: { local: number; global: number };
  /** With a query: every entry over the relevance floor, best first, with its score and reason (put in order when first read). */
  ranked?: RankedEntry[];
  /** With a query: of `entries`, those over the relevance floor, each with the query's terms it holds, strongest first (as `ranked` gives them). */
  matchedTerms?: ReadonlyMap<Entry, string[]>;
}

/**
 * The whole read path, pure: filter, dedupe, then either rank by the query (when it has terms)
 * and, with `fillWithCore`, fill with today's order, or sort and fill by today's rules alone;
 * add the partner of any contested entry, budget, index what is left (`index`) and format.
 *
 * @example
 * const plan = planInjection({ local, global, project: "webshop", limit: 20, maxChars: 9000 });
 * process.stdout.write(plan.block);
 */
export function planInjection(request: InjectionRequest): InjectionPlan {
  const candidates = "candidates" in request ? request.candidates : injectionCandidates(request);
  const sorted = inTodaysOrder(candidates, request.ranking?.orders);
  // The first `count` candidates in today's order.
  const todays = (count: number): readonly Entry[] => (sorted === undefined ? sortEntries(entryArray(candidates), count) : firstOf(sorted, count));
  const slots = request.limit < 0 ? candidates.length : request.limit;
  if (request.query !== undefined && queryTerms(request.query, request.ranking?.queryWeights).size > 0) {
    const ranking = rankingOf(candidates, request.query, request.ranking);
    const exclude = request.exclude;
    // The first `count` entries over the floor that are not excluded (all of them, when fewer):
    // a plan reads no further (see `indexOrder`), and the rest are never put in order.
    const matching = (count: number): Entry[] =>
      ranking
        .first(count + (exclude?.size ?? 0))
        .filter((item) => exclude === undefined || !exclude.has(item.entry.contentHash))
        .slice(0, count)
        .map((item) => item.entry);
    const relevant = matching(Math.min(slots, request.index?.matchesInFull ?? slots));
    if (request.fillWithCore !== true) return withRanking(budgeted(relevant, [], candidates, request, matching, null), ranking);
    const chosen = new Set(relevant);
    const core = selectEntries(candidates, request.limit, sorted).filter((entry) => !chosen.has(entry) && (exclude === undefined || !exclude.has(entry.contentHash)));
    // The index goes on where the floor stopped: every entry that matches a term at all, best
    // first (the model judges a title better than the floor judges a score), then the core.
    // (Of that, as many as the index can show, besides those it skips: those it names already,
    // and those shown or excluded. When the floor gives that many, the index reads no further.)
    const query = request.query;
    const indexFirst = (count: number) => {
      const over = matching(count);
      if (over.length === count) return over;
      return [...over, ...rankEntries(candidates, query, { ...request.ranking, floor: SEARCH_FLOOR, limit: count + over.length }).map((item) => item.entry)];
    };
    return withRanking(budgeted(relevant, core.slice(0, Math.max(0, slots - relevant.length)), candidates, request, indexFirst, todays), ranking);
  }
  return budgeted([], selectEntries(candidates, request.limit, sorted), candidates, request, () => [], todays);
}

// The plan with its ranking: the matched terms of the entries it shows (read for them alone),
// and the whole ranking (`ranked`) put in order only when it is read.
function withRanking(plan: InjectionPlan, ranking: Ranking<Entry>): InjectionPlan {
  const shown = ranking.among(plan.entries);
  let whole: RankedEntry[] | undefined;
  return {
    ...plan,
    matchedTerms: new Map([...shown].map(([entry, item]) => [entry, item.matchedTerms])),
    get ranked() {
      whole ??= ranking.first(Number.POSITIVE_INFINITY);
      return whole;
    },
  };
}

/**
 * `candidates` in today's order when `orders` gives it, else undefined. Where `orders` names the
 * candidates in that order (`inOrder`) and they are made as they are read (not an array), a
 * list of them that reads each when asked for: a plan reads today's first entries and no
 * others. Else they are put in order from their places (`order`), all of them.
 */
function inTodaysOrder<T extends Entry>(candidates: EntryList<T>, orders: EntryOrders | undefined): EntryList<T> | undefined {
  if (orders === undefined || orders.order.length !== candidates.length) return undefined;
  const { inOrder } = orders;
  if (!Array.isArray(candidates) && inOrder !== undefined && inOrder.length === candidates.length) {
    // Each entry read checked against its place (`order`): a cache's damaged column is said, not read as another order.
    return entryList(inOrder.length, (place) => {
      const position = inOrder[place]!;
      const entry = orders.order[position] === place ? candidates.at(position) : undefined;
      if (entry === undefined) throw new Error(`today's order names no candidate at place ${place} (orders.inOrder is not the inverse of orders.order)`);
      return entry;
    });
  }
  const sorted = new Array<T>(candidates.length);
  let position = 0;
  for (const entry of candidates) sorted[orders.order[position++]!] = entry;
  return sorted;
}

// The first `count` of `entries` (all of them, when fewer), read by their place.
function firstOf<T extends Entry>(entries: EntryList<T>, count: number): T[] {
  const first: T[] = [];
  for (let place = 0; place < Math.min(count, entries.length); place++) first.push(entries.at(place)!);
  return first;
}

/**
 * The entries an injection chooses from: the project's and the global store's, without the
 * global entries specific to other projects, deduplicated by content hash, each `Source` line
 * bounded (`boundSourceLine`).
 *
 * @example
 * buildRelevanceIndex(injectionCandidates({ local, global, project: "webshop" })); // cacheable with the files
 */
export function injectionCandidates(request: { local: readonly Entry[]; global: readonly Entry[]; project: string }): Entry[] {
  // What is injected shows a bounded Source line (the file keeps all of it): a line of a thousand
  // characters would eat the budget of entries.
  return dedupeEntries([...request.local, ...excludeOtherProjectsEntries(request.global, request.project)]).map(boundSourceLine);
}

// `relevant` in full first, whatever the index's share; then `core` while the share allows; then
// the index: the rest of `indexFirst`, then (where the core fills) the rest of today's order.
// Each is given as its first entries, at least so many as asked for.
function budgeted(
  relevant: Entry[],
  core: Entry[],
  candidates: EntryList,
  request: InjectionRequest,
  indexFirst: (count: number) => readonly Entry[],
  todays: ((count: number) => readonly Entry[]) | null,
): InjectionPlan {
  const { maxChars, index } = request;
  const selected = withContestedPartners([...relevant, ...core], candidates);
  const indexOn = index !== undefined && maxChars !== null && index.maxLines > 0;
  // Enough for the index to fill all its lines past every entry shown in full or excluded.
  let first: readonly Entry[] | undefined;
  const restOf = (kept: readonly Entry[]) => {
    if (!indexOn) return [];
    first ??= indexFirst(index.maxLines + selected.length + (request.exclude?.size ?? 0));
    return indexOrder(kept, first, todays, index.maxLines, request.exclude);
  };
  let { kept, dropped } = fitToBudget(selected, maxChars);
  let rest = restOf(kept);
  // Where an index has something to name, the core in full leaves it its share of the budget.
  if (indexOn && rest.length > 0) {
    const isCore = new Set(selected.slice(relevant.length));
    const coreCap = Math.floor(maxChars * (1 - index.share));
    ({ kept, dropped } = fitToBudget(selected, maxChars, (entry) => (isCore.has(entry) ? coreCap : Number.POSITIVE_INFINITY)));
    rest = restOf(kept);
  }
  const local = kept.filter((entry) => entry.scope === "local").length;
  const indexed: Entry[] = [];
  let indexText = "";
  if (indexOn && kept.length > 0) {
    // Room as for the longest heading, so that `withIndexFetch` may change it within the budget.
    const room = maxChars - formatMemoryBlock(kept).length - LONGEST_INDEX_HEADING - 1;
    const short = shortHashes(request.sharedHashPrefixes === undefined ? entryArray(candidates) : { shared: request.sharedHashPrefixes });
    const lines: Array<{ category: Entry["category"]; line: string }> = [];
    const titled = new Set<Entry["category"]>();
    let used = 0;
    for (const entry of rest) {
      const line = formatIndexLine(entry, short(entry.contentHash));
      const cost = line.length + (titled.has(entry.category) ? 0 : INDEX_CATEGORY_TITLES[entry.category].length);
      if (used + cost > room) break;
      used += cost;
      titled.add(entry.category);
      lines.push({ category: entry.category, line });
      indexed.push(entry);
    }
    indexText = formatMemoryIndex(lines, index.fetch);
  }
  return {
    entries: kept,
    block: formatMemoryBlock(kept, indexText),
    droppedForBudget: dropped.length,
    indexed,
    sources: { local, global: kept.length - local },
  };
}

/** What the index names, in order, at most `maxLines`: `first` where not in full, then today's order (`todays`), none of `exclude`. */
function indexOrder(kept: readonly Entry[], first: readonly Entry[], todays: ((count: number) => readonly Entry[]) | null, maxLines: number, exclude: ReadonlySet<string> = new Set()): Entry[] {
  const shown = new Set([...exclude, ...kept.map((entry) => entry.contentHash)]);
  const order: Entry[] = [];
  const add = (entry: Entry) => {
    if (order.length >= maxLines || shown.has(entry.contentHash)) return;
    shown.add(entry.contentHash);
    order.push(entry);
  };
  for (const entry of first) add(entry);
  if (order.length < maxLines && todays !== null) for (const entry of todays(maxLines + kept.length + first.length)) add(entry);
  return order;
}

// A contested entry is shown beside the entry it contradicts (`iflow-memory contest`), even
// when that one would not have made the cut: the reader sees both sides or neither.
function withContestedPartners(selected: Entry[], candidates: EntryList): Entry[] {
  const chosen = new Set(selected);
  const result = [...selected];
  for (const entry of selected) {
    const contest = Object.entries(entry.metadata).find(([key]) => key.toLowerCase() === "contested with")?.[1];
    if (contest === undefined) continue;
    for (const [, hash] of contest.matchAll(/sha256:([0-9a-f]{16})/g)) {
      const partner = find(candidates, (candidate) => candidate.contentHash === hash);
      if (partner !== undefined && !chosen.has(partner)) {
        chosen.add(partner);
        result.push(partner);
      }
    }
  }
  return result;
}

// The first of `entries` that `test` holds for, reading no further.
function find<T extends Entry>(entries: EntryList<T>, test: (entry: T) => boolean): T | undefined {
  for (const entry of entries) if (test(entry)) return entry;
  return undefined;
}
