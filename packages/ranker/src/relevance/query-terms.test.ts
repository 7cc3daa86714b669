import { describe, expect, it } from "vitest";
import { DEFAULT_QUERY_WEIGHTS, queryTerms, type RelevanceQuery } from "./query-terms.js";

describe("queryTerms", () => {
  it("weighs each term by the strongest part of the query it occurs in", () => {
    expect(
      Object.fromEntries(queryTerms({ branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"], commitSubjects: ["Retry embedding calls"] })),
    ).toEqual({ embed: 1, call: 1, timeout: 1, retri: 0.8, py: 0.3, semant: 0.15, memori: 0.15 });
  });

  it("drops the branch's type prefix and the folders that only say where a file is kept", () => {
    expect([...queryTerms({ branch: "feature/034-hook-cache", changedFiles: ["packages/store/src/lib/cache.ts"] }).keys()]).toEqual(["hook", "cach", "ts", "store"]);
  });

  it("counts words that say what to do, not what about, a third", () => {
    expect(Object.fromEntries(queryTerms({ text: "fix the pricing page" }))).toEqual({ fix: 1 / 3, price: 1, page: 1 });
  });

  it("gives boilerplate commit subjects no weight, and a conventional commit's type none, its scope and words theirs", () => {
    expect(queryTerms({ commitSubjects: ["Merge branch 'main'", "Merge pull request #12 from acme/payment-gateway", "wip", "Fix typo", 'Revert "Cache tax tables"', "Bump version to 1.2.3", "v1.2.3"] }).size).toBe(0);
    expect(Object.fromEntries(queryTerms({ commitSubjects: ["fix(checkout): retry idempotent requests", "chore(release): 1.2.0"] }))).toEqual({ checkout: 0.8, retri: 0.8, idempot: 0.8, request: 0.8 });
  });

  it("gives the same query's terms again as a copy of its own, and a query changed in place its new terms", () => {
    const query: RelevanceQuery = { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"] };
    const first = queryTerms(query);
    first.set("cach", 1);
    expect(Object.fromEntries(queryTerms(query))).toEqual({ embed: 1, call: 1, timeout: 1, retri: 0.3, py: 0.3, semant: 0.15, memori: 0.15 });
    (query.changedFiles as string[]).push("docs/cache.md");
    query.branch = "feature/price-page";
    expect(Object.fromEntries(queryTerms(query))).toEqual(Object.fromEntries(queryTerms({ branch: "feature/price-page", changedFiles: ["semantic_memory/retry.py", "docs/cache.md"] })));
    expect(queryTerms(query, { ...DEFAULT_QUERY_WEIGHTS, changedFiles: 0 }).has("retri")).toBe(false);
  });

  it("has no terms for an empty query", () => {
    expect(queryTerms({}).size).toBe(0);
    expect(queryTerms({ text: "  the of and ", changedFiles: [], branch: null, feature: null }).size).toBe(0);
  });
});
