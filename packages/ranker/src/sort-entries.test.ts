import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { entryOrders, sortEntries } from "./sort-entries.js";

const names = (entries: { name: string }[]) => entries.map((entry) => entry.name);

// The fields the orders read, drawn from few values: ties at every key.
const entryFields = fc.record({
  observationCount: fc.integer({ min: 0, max: 4 }),
  confidence: fc.constantFrom("high" as const, "medium" as const, "low" as const),
  lastObserved: fc.constantFrom(null, "2026-01-01T00:00:00Z", "2026-02-01", "Feature #3", "2026-02-01T00:00:00+01:00"),
  filePosition: fc.integer({ min: 1, max: 4 }),
});

describe("sortEntries", () => {
  it("puts higher observation counts first", () => {
    expect(names(sortEntries([makeEntry({ name: "one" }), makeEntry({ name: "five", observationCount: 5 })]))).toEqual(["five", "one"]);
  });

  it("breaks count ties by confidence, high > medium > low", () => {
    const entries = (["low", "high", "medium"] as const).map((confidence) => makeEntry({ name: confidence, confidence }));
    expect(names(sortEntries(entries))).toEqual(["high", "medium", "low"]);
  });

  it("breaks further ties by the Last observed time, newest first", () => {
    const entries = [makeEntry({ name: "older", lastObserved: "2026-01-01T00:00:00Z" }), makeEntry({ name: "newer", lastObserved: "2026-03-01" })];
    expect(names(sortEntries(entries))).toEqual(["newer", "older"]);
  });

  it("ranks a dated entry above an undated one, and undated ones by file position, later first", () => {
    const entries = [
      makeEntry({ name: "first in file", filePosition: 1, lastObserved: "Feature #33" }),
      makeEntry({ name: "dated", filePosition: 2, lastObserved: "2020-01-01T00:00:00Z" }),
      makeEntry({ name: "last in file", filePosition: 3 }),
    ];
    expect(names(sortEntries(entries))).toEqual(["dated", "last in file", "first in file"]);
  });

  it("is stable for entries equal in every key", () => {
    const entries = ["a", "b", "c"].map((name) => makeEntry({ name, lastObserved: "2026-01-01T00:00:00Z" }));
    expect(names(sortEntries(entries))).toEqual(["a", "b", "c"]);
  });
});

describe("entryOrders", () => {
  it("gives each entry's place in sortEntries' order and in recency order (500 random banks)", () => {
    fc.assert(
      fc.property(fc.array(entryFields, { maxLength: 60 }), (fields) => {
        const entries = fields.map((field, index) => makeEntry({ name: `e${index}`, ...field }));
        const orders = entryOrders(entries);
        const placed = (places: Int32Array) => entries.map((_, at) => at).sort((a, b) => places[a]! - places[b]!).map((at) => entries[at]!.name);
        expect(placed(orders.order)).toEqual(names(sortEntries(entries)));
        // Recency alone: what sortEntries gives when every count and confidence are the same.
        expect(placed(orders.recency)).toEqual(names(sortEntries(entries.map((one) => ({ ...one, observationCount: 1, confidence: "high" as const })))));
        // Each place's entry: today's order read place by place.
        expect(Array.from(orders.inOrder!, (at) => entries[at]!.name)).toEqual(names(sortEntries(entries)));
      }),
      { numRuns: 500 },
    );
  });
});

describe("sortEntries with a limit", () => {

  it("gives the first `limit` entries of the full order, ties and all", () => {
    fc.assert(
      fc.property(fc.array(entryFields, { maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (fields, limit) => {
        const entries = fields.map((field, index) => makeEntry({ name: `e${index}`, ...field }));
        expect(names(sortEntries(entries, limit))).toEqual(names(sortEntries(entries)).slice(0, limit));
      }),
      { numRuns: 500 },
    );
  });
});
