import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildRelevanceIndex, entryOrders, planInjection, sharedHashPrefixes, type InjectionRequest, type RelevanceQuery } from "@iflow-memory/ranker";
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
