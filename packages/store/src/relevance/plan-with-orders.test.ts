import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildRelevanceIndex, entryOrders, planInjection, queryTerms, sharedHashPrefixes, termPostings, type EntryList, type InjectionRequest, type RelevanceQuery } from "@iflow-memory/ranker";
import type { Entry } from "@iflow-memory/parser";
import { CORPORA_DIR, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { prepareSessionInjection } from "../prepare-session-injection.js";

// Every query of the labelled relevance sets: sessions of all four kinds, prompts, and contexts
// where nothing in the bank applies.
const queries: RelevanceQuery[] = ["dev", "heldout", "heldout-2"].flatMap(
  (set) => (JSON.parse(readFileSync(join(REPO_ROOT, "eval/relevance", `${set}.json`), "utf8")) as { contexts: Array<{ query: RelevanceQuery }> }).contexts.map((context) => context.query),
);

// A plan made with what `prepareSessionInjection` works out once (today's order, recency, the
// shared hash prefixes) against one that works it all out itself, as every plan did before.
function expectSamePlans(candidates: readonly Entry[]): void {
  const index = buildRelevanceIndex(candidates);
  const kept = { orders: entryOrders(candidates), sharedHashPrefixes: sharedHashPrefixes(candidates) };
  let compared = 0;
  for (const limit of [0, 1, 5, 20, -1]) {
    for (const fillWithCore of [true, false]) {
      for (const query of [undefined, ...queries]) {
        const request: InjectionRequest = {
          candidates,
          limit,
          maxChars: 9000,
          fillWithCore,
          index: { fetch: "mcp", share: 0.7, maxLines: 150, matchesInFull: 5 },
          exclude: new Set(candidates.slice(0, 3).map((entry) => entry.contentHash)),
          ...(query === undefined ? {} : { query }),
        };
        const alone = planInjection({ ...request, ranking: { index } });
        const withKept = planInjection({ ...request, ranking: { index, orders: kept.orders }, sharedHashPrefixes: kept.sharedHashPrefixes });
        expect(withKept).toEqual(alone);
        compared++;
      }
    }
  }
  expect(compared).toBe(5 * 2 * (queries.length + 1));
}

describe("planInjection with the orders and hash prefixes worked out beforehand", () => {
  it("plans what it plans without them, for every labelled query of the real bank, at every limit", async () => {
    const { ranking } = await prepareSessionInjection({ projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") });
    expect(ranking!.orders).toEqual(entryOrders(ranking!.candidates));
    expect(ranking!.sharedHashPrefixes).toEqual([]);
    expectSamePlans(ranking!.candidates);
  });

  it("and for copies of its entries whose hashes share their first digits, with ties in today's order", async () => {
    const { ranking } = await prepareSessionInjection({ projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") });
    const real = ranking!.candidates;
    // Three copies of each: the first shares its original's 8-digit prefix (the index must show
    // whole hashes for both), the others tie with their original in count and confidence.
    const copies = real.flatMap((entry, at) =>
      [0, 1, 2].map((copy) => ({
        ...entry,
        name: `${entry.name} (copy ${copy})`,
        contentHash: copy === 0 ? `${entry.contentHash.slice(0, 8)}${at.toString(16).padStart(8, "0")}` : `${"ab"[copy - 1]}${at.toString(16).padStart(7, "0")}00000000`,
        lastObserved: copy === 2 ? null : entry.lastObserved,
      })),
    );
    const candidates = [...real, ...copies];
    expect(sharedHashPrefixes(candidates).length).toBe(real.length);
    expectSamePlans(candidates);
  });
});

describe("planInjection's reading of its ranking", () => {
  it("reads no further than it shows: the index begins with the whole ranking's next entries, and the matched terms are the whole ranking's", async () => {
    const { ranking } = await prepareSessionInjection({ projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") });
    // Eight copies of the real bank's entries (2,120): common words match more entries than the index can name.
    const candidates = Array.from({ length: 8 }, (_, copy) => ranking!.candidates.map((entry, at) => ({ ...entry, name: `${entry.name} (${copy})`, contentHash: `${copy}${at.toString(16).padStart(15, "0")}` }))).flat();
    const options = { index: buildRelevanceIndex(candidates), orders: entryOrders(candidates) };
    const exclude = new Set(candidates.slice(0, 3).map((entry) => entry.contentHash));
    let longer = 0;
    // A budget of 9,000 characters ends the index before its 150 lines; one of 60,000 does not.
    for (const [fillWithCore, maxChars] of [[true, 9000], [false, 9000], [true, 60_000], [false, 60_000]] as const) {
      for (const query of queries) {
        const plan = planInjection({ candidates, limit: 20, maxChars, fillWithCore, query, exclude, index: { fetch: "mcp", share: 0.7, maxLines: 150, matchesInFull: 5 }, ranking: options });
        const whole = plan.ranked ?? [];
        // The first five over the floor in full, first (the rest of what is shown is the core).
        const over = whole.map((item) => item.entry).filter((entry) => !exclude.has(entry.contentHash));
        expect(plan.entries.slice(0, Math.min(5, over.length))).toEqual(over.slice(0, 5));
        for (const entry of plan.entries) expect(plan.matchedTerms?.get(entry)).toEqual(whole.find((item) => item.entry === entry)?.matchedTerms);
        const next = whole.map((item) => item.entry).filter((entry) => !plan.entries.includes(entry) && !exclude.has(entry.contentHash));
        const named = Math.min(next.length, plan.indexed.length);
        expect(plan.indexed.slice(0, named)).toEqual(next.slice(0, named));
        if (next.length > plan.indexed.length) longer++;
      }
    }
    // Where the ranking is longer than the index, its tail was never put in order for the plan.
    expect(longer).toBeGreaterThan(queries.length);
  });
});

// The entries as a ranking cache gives thousands of them: each made (here, noted) when first read.
function notedList(entries: readonly Entry[]): { list: EntryList; read: Set<number> } {
  const read = new Set<number>();
  const at = (position: number): Entry | undefined => {
    if (!(Number.isInteger(position) && position >= 0 && position < entries.length)) return undefined;
    read.add(position);
    return entries[position];
  };
  return {
    list: {
      length: entries.length,
      at,
      *[Symbol.iterator]() {
        for (let position = 0; position < entries.length; position++) yield at(position)!;
      },
    },
    read,
  };
}

describe("planInjection over entries made as they are read", () => {
  it("plans what it plans over an array, reading only the entries that hold a term of the query and today's first ones (inOrder), of 2,120", async () => {
    const { ranking } = await prepareSessionInjection({ projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") });
    const candidates = Array.from({ length: 8 }, (_, copy) => ranking!.candidates.map((entry, at) => ({ ...entry, name: `${entry.name} (${copy})`, contentHash: `${copy}${at.toString(16).padStart(15, "0")}` }))).flat();
    const index = buildRelevanceIndex(candidates);
    const orders = entryOrders(candidates);
    // Today's first entries: as many as the core and an index of 150 lines can take, and more.
    const todaysFirst = new Set(orders.inOrder!.slice(0, 400));
    let fewest = candidates.length;
    for (const fillWithCore of [true, false]) {
      for (const query of [undefined, ...queries]) {
        const request: InjectionRequest = { candidates, limit: 20, maxChars: 9000, fillWithCore, index: { fetch: "mcp", share: 0.7, maxLines: 150, matchesInFull: 5 }, ranking: { index, orders }, sharedHashPrefixes: [], ...(query === undefined ? {} : { query }) };
        const { list, read } = notedList(candidates);
        const plan = planInjection({ ...request, candidates: list });
        const expected = planInjection(request);
        expect({ ...plan, ranked: plan.ranked }).toEqual({ ...expected, ranked: expected.ranked });
        const holding = new Set<number>();
        for (const term of query === undefined ? [] : queryTerms(query).keys()) termPostings(index, term).forEach((number, at) => at % 2 === 0 && holding.add(number));
        expect([...read].filter((position) => !holding.has(position) && !todaysFirst.has(position))).toEqual([]);
        if (read.size > 0) fewest = Math.min(fewest, read.size);
      }
    }
    expect(fewest).toBeLessThan(200);
    // Without inOrder, today's order is made from every entry's place: all of them are read.
    const { list, read } = notedList(candidates);
    planInjection({ candidates: list, limit: 20, maxChars: 9000, ranking: { index, orders: { order: orders.order, recency: orders.recency } }, sharedHashPrefixes: [] });
    expect(read.size).toBe(candidates.length);
  });

  it("says so when today's order given place by place is not that of the places (a damaged cache)", async () => {
    const { ranking } = await prepareSessionInjection({ projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") });
    const candidates = ranking!.candidates;
    const orders = entryOrders(candidates);
    const inOrder = orders.inOrder!.slice();
    [inOrder[0], inOrder[1]] = [inOrder[1]!, inOrder[0]!];
    const { list } = notedList(candidates);
    expect(() => planInjection({ candidates: list, limit: 20, maxChars: 9000, ranking: { orders: { ...orders, inOrder } } })).toThrow("today's order names no candidate at place 0 (orders.inOrder is not the inverse of orders.order)");
    // An array of entries is put in order from their places: the column is not read.
    expect(planInjection({ candidates, limit: 20, maxChars: 9000, ranking: { orders: { ...orders, inOrder } } })).toEqual(planInjection({ candidates, limit: 20, maxChars: 9000, ranking: { orders } }));
  });
});
