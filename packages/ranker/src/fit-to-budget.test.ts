import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { fitToBudget } from "./fit-to-budget.js";
import { formatMemoryBlock } from "./format-memory-block.js";

const big = makeEntry({ name: "Big", category: "anti-patterns", description: "x".repeat(400) });
const small = makeEntry({ name: "Small", category: "heuristics", description: "Short." });
const last = makeEntry({ name: "Last", category: "patterns", description: "Also short." });

describe("fitToBudget", () => {
  it("keeps everything without a budget", () => {
    expect(fitToBudget([big, small, last], null)).toEqual({ kept: [big, small, last], dropped: [] });
  });

  it("★ leaves out a whole entry that would overflow the budget, never a part of one, and still fits smaller ones after it", () => {
    const budget = formatMemoryBlock([small, last]).length;
    const result = fitToBudget([big, small, last], budget);
    expect(result).toEqual({ kept: [small, last], dropped: [big] });
    expect(formatMemoryBlock(result.kept).length).toBe(budget);
  });

  it("drops the lowest-priority entries first when the block is one character too long", () => {
    const budget = formatMemoryBlock([big, small, last]).length - 1;
    expect(fitToBudget([big, small, last], budget)).toEqual({ kept: [big, small], dropped: [last] });
  });

  it("computes the size of the block exactly, category titles included", () => {
    const exact = formatMemoryBlock([big, small, last]).length;
    expect(fitToBudget([big, small, last], exact).dropped).toEqual([]);
  });
});
