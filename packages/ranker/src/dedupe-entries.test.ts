import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { dedupeEntries } from "./dedupe-entries.js";

describe("dedupeEntries", () => {
  it("keeps the first of two entries with the same normalised description when the later count is not higher", () => {
    const local = makeEntry({ name: "Local", description: "Run the tests first.", observationCount: 2 });
    const global = makeEntry({ name: "Global", description: "  run THE tests\tfirst. ", observationCount: 2, scope: "global" });
    expect(dedupeEntries([local, global])).toEqual([local]);
  });

  it("keeps the first position of a duplicate when the later copy has a higher count", () => {
    const a = makeEntry({ name: "A", description: "Same.", observationCount: 1 });
    const b = makeEntry({ name: "B" });
    const c = makeEntry({ name: "C", description: "same.", observationCount: 5, scope: "global" });
    expect(dedupeEntries([a, b, c]).map((entry) => entry.name)).toEqual(["C", "B"]);
  });

  it("★ never matches entries with an empty description (the original collapsed them into one)", () => {
    const entries = ["A", "B", "C"].map((name) => makeEntry({ name, description: "" }));
    expect(dedupeEntries(entries)).toEqual(entries);
  });
});

describe("dedupeEntries (contested entries)", () => {
  it("carries a Contested with mark of the dropped copy over to the kept one", () => {
    const local = makeEntry({ name: "Local", description: "Same.", observationCount: 3, metadataText: "- Observation count: 3", metadata: { "Observation count": "3" } });
    const global = makeEntry({ name: "Global", description: "same.", scope: "global", metadataText: "- Contested with: Other (sha256:491b5e15f50c1c0d)", metadata: { "Contested with": "Other (sha256:491b5e15f50c1c0d)" } });
    expect(dedupeEntries([local, global])).toEqual([
      { ...local, metadataText: "- Observation count: 3\n- Contested with: Other (sha256:491b5e15f50c1c0d)", metadata: { "Observation count": "3", "Contested with": "Other (sha256:491b5e15f50c1c0d)" } },
    ]);
  });
});
