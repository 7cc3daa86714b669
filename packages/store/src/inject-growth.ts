import { CATEGORIES, type Category, type Entry } from "@iflow-memory/parser";
import { compareInTodaysOrder, hasEmptyDescription, injectionCandidates, isContested, type InjectionPlan } from "@iflow-memory/ranker";
import { readAppendedEntries, type MemoryFileRead, type ReadMark } from "./read-entry-files.js";
import type { StoreWarning } from "./store-warning.js";

/**
 * What a plan in today's order (no query, no index) leaves to tell, without reading the memory
 * files again, that learnings appended to one of the knowledge bank's files leave it as it is
 * (`growInjection`): what each category shows last and whether it holds more, every candidate's
 * content hash, the observation counts of the knowledge bank's copies of each, and where each
 * file was read to (`ReadMark`). Plain JSON, kept beside what the plan printed.
 */
export interface InjectionGrowth {
  /** Every candidate's content hash, one after the other (16 characters each). */
  hashes: string;
  /** By content hash: the highest observation count of its copies in each of the knowledge bank's files (`CATEGORIES` order; null: none there). */
  localCounts: Record<string, Array<number | null>>;
  /** By category: the last entry the plan shows of it (the fields today's order compares), or null; and whether it holds entries not shown. */
  categories: Partial<Record<Category, { last: OrderFields | null; more: boolean }>>;
  /** The knowledge bank's files read whole to their end, each with where the read left off. */
  files: Array<{ path: string; category: Category; mark: ReadMark }>;
}

type OrderFields = Pick<Entry, "observationCount" | "confidence" | "lastObserved" | "filePosition">;

/** Candidates past this many are not kept as hashes: such a bank's plan is worked out from its caches. */
export const GROWTH_MAX_CANDIDATES = 5000;

/**
 * The growth of a plan in today's order (`InjectionGrowth`), where it can be told at all: the
 * selection full (`limit` entries, none dropped for the budget, no contested partner added), no
 * warning (no secret redacted), every observation count a number, the knowledge bank's files read
 * with where they ended. Else null.
 *
 * @example
 * const growth = injectionGrowth({ local, global, project, limit: 20 }, plan, warnings, files);
 */
export function injectionGrowth(
  request: { local: readonly Entry[]; global: readonly Entry[]; project: string; limit: number },
  plan: InjectionPlan,
  warnings: readonly StoreWarning[],
  files: readonly MemoryFileRead[] | undefined,
): InjectionGrowth | null {
  if (request.limit < 0 || plan.entries.length !== request.limit || plan.droppedForBudget > 0 || warnings.length > 0 || files === undefined) return null;
  if (plan.entries.some((entry) => isContested(entry))) return null;
  const candidates = injectionCandidates(request);
  if (candidates.length > GROWTH_MAX_CANDIDATES || candidates.some((entry) => entry.contentHash.length !== 16)) return null;
  if (![...request.local, ...candidates].every((entry) => Number.isFinite(entry.observationCount))) return null;
  const localCounts: InjectionGrowth["localCounts"] = {};
  for (const entry of request.local) {
    const counts = (localCounts[entry.contentHash] ??= CATEGORIES.map(() => null));
    const at = CATEGORIES.indexOf(entry.category);
    counts[at] = Math.max(counts[at] ?? Number.NEGATIVE_INFINITY, entry.observationCount);
  }
  const categories: InjectionGrowth["categories"] = {};
  for (const category of CATEGORIES) {
    const all = candidates.filter((entry) => entry.category === category);
    if (all.length === 0) continue;
    const shown = plan.entries.filter((entry) => entry.category === category);
    const last = shown.at(-1);
    categories[category] = {
      last: last === undefined ? null : { observationCount: last.observationCount, confidence: last.confidence, lastObserved: last.lastObserved, filePosition: last.filePosition },
      more: all.length > shown.length,
    };
  }
  const marked: InjectionGrowth["files"] = [];
  for (const file of files) {
    if (file.scope !== "local" || file.tail === undefined || file.entries.length === 0) continue;
    marked.push({ path: file.path, category: file.category, mark: { tail: file.tail, last: JSON.stringify(file.entries.at(-1)) } });
  }
  return { hashes: candidates.map((entry) => entry.contentHash).join(""), localCounts, categories, files: marked };
}

/**
 * `growth` for the knowledge-bank file at `path` grown by learnings appended since (and no other
 * file changed): the same plan shows the same entries when each learning is either a new one (its
 * hash none of the candidates'), of a category with entries not shown, that comes after the last
 * one shown of it in today's order; or a copy of one the knowledge bank holds before it, seen no
 * more often and not contested, which deduplication drops (`dedupeEntries`). The growth then goes
 * on from the file as it is now. Null when it cannot be told so (the file changed otherwise, or a
 * learning might change what is shown): the caller plans from the files.
 *
 * @example
 * const grown = await growInjection(saved.growth, "/work/webshop/docs/knowledge-bank/heuristics.md");
 * if (grown !== null) print(saved.output); // the same as planning anew
 */
export async function growInjection(growth: InjectionGrowth, path: string, options: { inThread?: boolean } = {}): Promise<InjectionGrowth | null> {
  const at = growth.files.findIndex((file) => file.path === path);
  const file = growth.files[at];
  if (file === undefined) return null;
  const appended = await readAppendedEntries(path, { scope: "local", category: file.category }, file.mark, options);
  if (appended === null) return null;
  const fileAt = CATEGORIES.indexOf(file.category);
  const category = growth.categories[file.category];
  const hashes = new Set<string>();
  for (let start = 0; start < growth.hashes.length; start += 16) hashes.add(growth.hashes.slice(start, start + 16));
  const localCounts = { ...growth.localCounts };
  const added: string[] = [];
  for (const entry of appended.entries) {
    const hash = entry.contentHash;
    const count = entry.observationCount;
    if (hash.length !== 16 || !Number.isFinite(count) || hasEmptyDescription(entry)) return null;
    const counts = localCounts[hash];
    if (hashes.has(hash)) {
      // A copy: dropped where the knowledge bank holds one before it (its files in order, this one's
      // entries before the learning) seen as often at least, and it carries no contest over.
      const before = (counts ?? []).slice(0, fileAt + 1).filter((seen): seen is number => typeof seen === "number");
      if (before.length === 0 || count > Math.max(...before) || isContested(entry)) return null;
      continue;
    }
    // (The last shown as an entry of its fields: today's order reads no other.)
    const last = category?.last;
    if (category?.more !== true || (last != null && !(compareInTodaysOrder({ ...entry, observationCount: last.observationCount, confidence: last.confidence, lastObserved: last.lastObserved, filePosition: last.filePosition }, entry) < 0))) return null;
    hashes.add(hash);
    added.push(hash);
    localCounts[hash] = CATEGORIES.map((_, index) => (index === fileAt ? count : null));
  }
  const files = growth.files.map((kept, index) => (index === at ? { ...kept, mark: appended.mark } : kept));
  return { ...growth, hashes: growth.hashes + added.join(""), localCounts, files };
}
