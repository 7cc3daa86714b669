import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { formatMemoryBlock } from "./format-memory-block.js";
import { planInjection } from "./plan-injection.js";

describe("planInjection", () => {
  it("filters, dedupes, selects, budgets and formats, and counts the sources of what it kept", () => {
    const local = [makeEntry({ name: "Reproduce First", category: "heuristics", description: "Write the failing test first.", observationCount: 2 })];
    const global = [
      makeEntry({ name: "Reproduce First (global)", category: "heuristics", description: "write the failing test  first.", observationCount: 6, scope: "global" }),
      makeEntry({ name: "Webshop Tax", category: "anti-patterns", scope: "global", tags: ["project-specific"], metadata: { Source: "webshop, Feature #41" } }),
      makeEntry({ name: "Atomic Writes", category: "patterns", scope: "global", description: "Write, fsync, rename." }),
    ];
    const plan = planInjection({ local, global, project: "bookshelf", limit: 20, maxChars: null });
    expect({ ...plan, entries: plan.entries.map((entry) => entry.name) }).toEqual({
      entries: ["Reproduce First (global)", "Atomic Writes"],
      block:
        "## Engineering Memory (from knowledge bank)\n\n### Heuristics\n### Heuristic: Reproduce First (global)\nwrite the failing test  first.\n\n### Patterns to Follow\n### Pattern: Atomic Writes\nWrite, fsync, rename.\n\n---\n",
      droppedForBudget: 0,
      indexed: [],
      sources: { local: 0, global: 2 },
    });
  });

  it("★ records how many selected entries the budget dropped and keeps the block within it", () => {
    const local = Array.from({ length: 30 }, (_, index) => makeEntry({ name: `Entry ${index}`, description: `${index} ${"y".repeat(500)}`, observationCount: 30 - index }));
    const plan = planInjection({ local, global: [], project: "p", limit: 20, maxChars: 3000 });
    expect([plan.block.length <= 3000, plan.entries.length + plan.droppedForBudget]).toEqual([true, 20]);
    expect(plan.droppedForBudget).toBeGreaterThan(0);
  });

  it("plans nothing from nothing", () => {
    expect(planInjection({ local: [], global: [], project: "p", limit: 20, maxChars: 9000 })).toEqual({ entries: [], block: "", droppedForBudget: 0, indexed: [], sources: { local: 0, global: 0 } });
  });
});

describe("planInjection (contested entries)", () => {
  it("injects the entry a selected one is contested with, even past the limit", () => {
    const always = makeEntry({ name: "Always Mock", category: "heuristics", description: "Always mock the database.", observationCount: 9, scope: "global", metadata: { "Contested with": "Never Mock (sha256:REPLACE)" } });
    const never = makeEntry({ name: "Never Mock", category: "heuristics", description: "Never mock the database.", observationCount: 1, scope: "global" });
    const filler = makeEntry({ name: "Filler", category: "heuristics", description: "Something else.", observationCount: 5 });
    const contested = { ...always, metadata: { "Contested with": `Never Mock (sha256:${never.contentHash})` } };
    const plan = planInjection({ local: [filler], global: [contested, never], project: "p", limit: 2, maxChars: null });
    expect(plan.entries.map((entry) => entry.name)).toEqual(["Always Mock", "Filler", "Never Mock"]);
  });
});

describe("planInjection (with a query)", () => {
  const retries = makeEntry({ name: "Retry Embedding Calls", category: "anti-patterns", description: "Embedding calls time out under load; retry with backoff.", observationCount: 1 });
  const proven = Array.from({ length: 6 }, (_, index) =>
    makeEntry({ name: `Proven ${index}`, category: (["heuristics", "patterns"] as const)[index % 2], description: `Review checklist item ${index} for pull requests.`, observationCount: 9 }),
  );

  it("injects only the entries that match, even when the limit and the category minimum have room", () => {
    const plan = planInjection({ local: [...proven, retries], global: [], project: "p", limit: 20, maxChars: 9000, query: { branch: "fix/retry-embedding-calls" }, ranking: { floor: { minimumKnownShare: 0, minimum: 0.36, relativeToBest: 0.2, minimumTerms: 1, minimumCoverage: 0.1 } } });
    expect([plan.entries.map((entry) => entry.name), plan.ranked?.map((item) => item.entry.name)]).toEqual([["Retry Embedding Calls"], ["Retry Embedding Calls"]]);
  });

  it("injects nothing when nothing matches", () => {
    const plan = planInjection({ local: [...proven, retries], global: [], project: "p", limit: 20, maxChars: 9000, query: { text: "bump the postgres docker image" } });
    expect([plan.entries, plan.block, plan.ranked]).toEqual([[], "", []]);
  });

  it("keeps today's order when the query has no terms", () => {
    const request = { local: [...proven, retries], global: [], project: "p", limit: 4, maxChars: 9000 };
    expect(planInjection({ ...request, query: { text: "the", changedFiles: [] } })).toEqual(planInjection(request));
  });
});

describe("planInjection (session start: relevance, then the core, then an index)", () => {
  // A bank of twelve: two entries about retries, the rest proven and unrelated.
  const retry = makeEntry({ name: "Retry With Backoff", category: "heuristics", description: "Retry the flaky embedding call with exponential backoff and jitter." });
  const idempotent = makeEntry({ name: "Idempotent Retries", category: "anti-patterns", description: "A blanket retry charged a card twice; retry only idempotent calls." });
  const core = Array.from({ length: 10 }, (_, index) =>
    makeEntry({ name: `Proven Rule ${index}`, category: (["anti-patterns", "heuristics", "patterns"] as const)[index % 3], description: `Proven rule ${index} about ${["schemas", "reviews", "plans", "docs", "locks"][index % 5]} ${"z".repeat(200)}.`, observationCount: 20 - index }),
  );
  const candidates = [retry, idempotent, ...core];
  const query = { text: "the embedding call retry keeps timing out" };

  it("puts what matches first and fills the limit with today's order, so a start is never empty", () => {
    const plan = planInjection({ candidates, limit: 5, maxChars: null, query, fillWithCore: true });
    expect(plan.entries.map((entry) => entry.name)).toEqual(["Retry With Backoff", "Idempotent Retries", "Proven Rule 0", "Proven Rule 3", "Proven Rule 6"]);
    const nothing = planInjection({ candidates, limit: 3, maxChars: null, query: { text: "grid layout of the settings page css" }, fillWithCore: true });
    expect(nothing.entries.map((entry) => entry.name)).toEqual(["Proven Rule 0", "Proven Rule 3", "Proven Rule 6"]);
  });

  it("gives only what matches without fillWithCore (strict), and nothing when nothing does", () => {
    expect(planInjection({ candidates, limit: 5, maxChars: null, query }).entries.map((entry) => entry.name)).toEqual(["Retry With Backoff", "Idempotent Retries"]);
    expect(planInjection({ candidates, limit: 5, maxChars: null, query: { text: "grid layout of the settings page css" } }).block).toBe("");
  });

  it("names the entries that did not fit in full in an index of hashes and titles, within the budget, and never pushes out a matching entry", () => {
    const maxChars = 1500;
    const plan = planInjection({ candidates, limit: 20, maxChars, query, fillWithCore: true, index: { fetch: "mcp", share: 0.9, maxLines: 50 } });
    expect(plan.entries.map((entry) => entry.name)).toEqual(["Retry With Backoff", "Idempotent Retries"]);
    expect(plan.indexed.map((entry) => entry.name)).toEqual(core.map((entry) => entry.name));
    expect(plan.block.length).toBeLessThanOrEqual(maxChars);
    expect(plan.block).toContain(
      "### More in memory (titles only)\nWhen one of these bears on the task, read it in full before you act: the iflow-memory MCP tool `get_memory` with its hash; `search_memory` finds others by topic.\nAnti-patterns:\n" +
        `- \`${core[0]!.contentHash.slice(0, 8)}\` Proven Rule 0\n- \`${core[3]!.contentHash.slice(0, 8)}\` Proven Rule 3\n`,
    );
    expect(plan.block.endsWith("\n\n---\n")).toBe(true);
    // The matching entries are kept in full even when they alone fill the budget.
    const tight = planInjection({ candidates, limit: 20, maxChars: formatMemoryBlock([retry, idempotent]).length, query, fillWithCore: true, index: { fetch: "mcp", share: 0.9, maxLines: 50 } });
    expect([tight.entries.map((entry) => entry.name), tight.indexed]).toEqual([["Retry With Backoff", "Idempotent Retries"], []]);
  });

  it("shows at most matchesInFull matching entries in full and names the next matching ones first in the index", () => {
    const plan = planInjection({ candidates, limit: 20, maxChars: 2000, query, fillWithCore: true, index: { fetch: "cli", share: 0.5, maxLines: 3, matchesInFull: 1 } });
    expect(plan.entries.map((entry) => entry.name)).toEqual(["Retry With Backoff", "Proven Rule 0", "Proven Rule 3", "Proven Rule 6"]);
    expect(plan.indexed.map((entry) => entry.name)).toEqual(["Idempotent Retries", "Proven Rule 1", "Proven Rule 2"]);
    expect(plan.block).toContain("run `iflow-memory show HASH`");
  });

  it("keeps the block of a plan without an index byte for byte as before", () => {
    const plan = planInjection({ candidates, limit: 3, maxChars: 9000 });
    expect(plan.block).toBe(formatMemoryBlock(plan.entries));
    expect(plan.indexed).toEqual([]);
  });
});
