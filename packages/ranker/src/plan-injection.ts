import type { Entry } from "@iflow-memory/parser";
import { dedupeEntries } from "./dedupe-entries.js";
import { excludeOtherProjectsEntries } from "./exclude-other-projects-entries.js";
import { fitToBudget } from "./fit-to-budget.js";
import { formatMemoryBlock } from "./format-memory-block.js";
import { rankEntries, type RankedEntry, type RankingOptions } from "./relevance/rank-entries.js";
import { queryTerms, type RelevanceQuery } from "./relevance/query-terms.js";
import { selectEntries } from "./select-entries.js";

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
  | { candidates: readonly Entry[] };

export type InjectionRequest = InjectionSource & {
  /** Entries at most; -1 no limit, 0 none. */
  limit: number;
  /** Characters the block may take at most; null: no budget (the original's output). */
  maxChars: number | null;
  /**
   * What the session is about. With terms, only the entries that match it are injected, best
   * first (`rankEntries`: nothing fills the limit or a category's share below the relevance
   * floor). Absent, or without a single term: today's order.
   */
  query?: RelevanceQuery;
  /** Options of `rankEntries`, e.g. a cached index of `injectionCandidates(request)`. */
  ranking?: RankingOptions;
  /** Content hashes never to choose by relevance, e.g. what this session was given already. */
  exclude?: ReadonlySet<string>;
};

export interface InjectionPlan {
  /** The injected entries in selection order (highest priority first); the block groups them by category. */
  entries: Entry[];
  /** The memory block; "" when nothing is selected. */
  block: string;
  /** Selected entries left out to stay within `maxChars`. */
  droppedForBudget: number;
  sources: { local: number; global: number };
  /** With a query: every entry over the relevance floor, best first, with its score and reason. */
  ranked?: RankedEntry[];
}

/**
 * The whole read path, pure: filter, dedupe, then either rank by the query (when it has terms)
 * or sort and fill by today's rules, add the partner of any contested entry, budget and format.
 *
 * @example
 * const plan = planInjection({ local, global, project: "webshop", limit: 20, maxChars: 9000 });
 * process.stdout.write(plan.block);
 */
export function planInjection(request: InjectionRequest): InjectionPlan {
  const candidates = "candidates" in request ? request.candidates : injectionCandidates(request);
  if (request.query !== undefined && queryTerms(request.query, request.ranking?.queryWeights).size > 0) {
    const ranked = rankEntries(candidates, request.query, request.ranking);
    const exclude = request.exclude;
    const chosen = ranked.filter((item) => exclude === undefined || !exclude.has(item.entry.contentHash)).map((item) => item.entry);
    return { ...budgeted(chosen.slice(0, request.limit < 0 ? chosen.length : request.limit), candidates, request.maxChars), ranked };
  }
  return budgeted(selectEntries(candidates, request.limit), candidates, request.maxChars);
}

/**
 * The entries an injection chooses from: the project's and the global store's, without the
 * global entries specific to other projects, deduplicated by content hash.
 *
 * @example
 * buildRelevanceIndex(injectionCandidates({ local, global, project: "webshop" })); // cacheable with the files
 */
export function injectionCandidates(request: { local: readonly Entry[]; global: readonly Entry[]; project: string }): Entry[] {
  return dedupeEntries([...request.local, ...excludeOtherProjectsEntries(request.global, request.project)]);
}

function budgeted(selected: Entry[], candidates: readonly Entry[], maxChars: number | null): InjectionPlan {
  const { kept, dropped } = fitToBudget(withContestedPartners(selected, candidates), maxChars);
  const local = kept.filter((entry) => entry.scope === "local").length;
  return {
    entries: kept,
    block: formatMemoryBlock(kept),
    droppedForBudget: dropped.length,
    sources: { local, global: kept.length - local },
  };
}

// A contested entry is shown beside the entry it contradicts (`iflow-memory contest`), even
// when that one would not have made the cut: the reader sees both sides or neither.
function withContestedPartners(selected: Entry[], candidates: readonly Entry[]): Entry[] {
  const chosen = new Set(selected);
  const result = [...selected];
  for (const entry of selected) {
    const contest = Object.entries(entry.metadata).find(([key]) => key.toLowerCase() === "contested with")?.[1];
    if (contest === undefined) continue;
    for (const [, hash] of contest.matchAll(/sha256:([0-9a-f]{16})/g)) {
      const partner = candidates.find((candidate) => candidate.contentHash === hash);
      if (partner !== undefined && !chosen.has(partner)) {
        chosen.add(partner);
        result.push(partner);
      }
    }
  }
  return result;
}
