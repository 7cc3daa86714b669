import type { Category } from "@iflow-memory/parser";
import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { selectEntries } from "./select-entries.js";

/** `count` entries of a category, ranked by their observation count (name "ap1" outranks "ap2"). */
function category(category: Category, count: number) {
  const short = { "anti-patterns": "ap", heuristics: "h", patterns: "p" }[category];
  return Array.from({ length: count }, (_, index) => makeEntry({ name: `${short}${index + 1}`, category, observationCount: 100 - index }));
}

const names = (entries: { name: string }[]) => entries.map((entry) => entry.name);
const bank = [...category("patterns", 5), ...category("anti-patterns", 10), ...category("heuristics", 5)];

describe("selectEntries", () => {
  it("guarantees three per non-empty category when the limit allows, then fills anti-patterns → heuristics → patterns", () => {
    expect(names(selectEntries(bank, 12))).toEqual(["ap1", "ap2", "ap3", "h1", "h2", "h3", "p1", "p2", "p3", "ap4", "ap5", "ap6"]);
  });

  it("fills by priority alone when the limit is below three per non-empty category", () => {
    expect(names(selectEntries(bank, 8))).toEqual(["ap1", "ap2", "ap3", "ap4", "ap5", "ap6", "ap7", "ap8"]);
  });

  it("counts only non-empty categories for the guarantee, and takes all of a category smaller than three", () => {
    const small = [...category("anti-patterns", 8), ...category("patterns", 2)];
    expect(names(selectEntries(small, 6))).toEqual(["ap1", "ap2", "ap3", "p1", "p2", "ap4"]);
  });

  it("selects nothing at limit 0", () => {
    expect(selectEntries(bank, 0)).toEqual([]);
  });

  it("★ selects everything at limit -1 (the original selected nothing)", () => {
    expect(selectEntries(bank, -1).length).toBe(20);
  });

  it("selects everything when the limit exceeds the bank", () => {
    expect(selectEntries(bank, 100).length).toBe(20);
  });
});
