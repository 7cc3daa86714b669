import { describe, expect, it } from "vitest";
import { appendGlobalEntry, formatGlobalEntry, recordObservation } from "./global-store-text.js";

const fields = { category: "patterns" as const, name: "Atomic Writes", description: "Write, fsync, rename.", contentHash: "1234567890abcdef", sources: ["infra, Feature #061"], observationCount: 1, lastObserved: "2026-10-10T15:00:00Z", tags: "universal", confidence: "medium" as const };

describe("appendGlobalEntry", () => {
  it("starts a new file with the §3.3 header and writes the entry in the §3.3 format", () => {
    expect(appendGlobalEntry("", "patterns", formatGlobalEntry(fields))).toBe(
      "# Global Patterns\n\nCross-project learnings promoted from retrospectives. Automatically managed by iflow.\nDo not edit manually — entries are updated during /finish.\n\n" +
        "### Pattern: Atomic Writes\nWrite, fsync, rename.\n- Content-Hash: sha256:1234567890abcdef\n- Source: infra, Feature #061\n- Observation count: 1\n- Last observed: 2026-10-10T15:00:00Z\n- Tags: universal\n- Confidence: medium\n",
    );
  });
});

describe("recordObservation", () => {
  it("changes only the entry's count, date and sources, keeping every other byte", () => {
    const text = "# Global Patterns\n\n<!-- kept -->\n### Pattern: A\nfirst\n- Source: x, Feature #1\n- Observation count: 2\n- Last observed: 2026-01-01T00:00:00Z\n- Note: keep me\n\n### Pattern: B\nsecond\n- Observation count: 7\n";
    expect(recordObservation(text, 4, { observationCount: 3, lastObserved: "2026-11-22T10:00:00Z", source: "y, Feature #2" })).toBe(
      "# Global Patterns\n\n<!-- kept -->\n### Pattern: A\nfirst\n- Source: x, Feature #1; y, Feature #2\n- Observation count: 3\n- Last observed: 2026-11-22T10:00:00Z\n- Note: keep me\n\n### Pattern: B\nsecond\n- Observation count: 7\n",
    );
  });

  it("adds missing metadata lines after the entry's last line", () => {
    const text = "### Pattern: A\nfirst\n\n### Pattern: B\n";
    expect(recordObservation(text, 1, { observationCount: 2, lastObserved: "T", source: "y" })).toBe("### Pattern: A\nfirst\n- Source: y\n- Observation count: 2\n- Last observed: T\n\n### Pattern: B\n");
  });
});

describe("appendGlobalEntry (several at once)", () => {
  it("appends entries joined with a newline exactly as one by one", () => {
    const fields = (name: string) => ({ category: "patterns" as const, name, description: `${name} text.`, contentHash: "0".repeat(16), sources: ["webshop"], observationCount: 1, lastObserved: "2026-11-24T10:00:00Z", tags: "universal", confidence: "medium" as const });
    const blocks = ["One", "Two", "Three"].map((name) => formatGlobalEntry(fields(name)));
    for (const start of ["", "# Global Patterns\n\nintro\n", "# Global Patterns\n\n### Pattern: Old\nOld text.\n- Observation count: 2"]) {
      const oneByOne = blocks.reduce((text, block) => appendGlobalEntry(text, "patterns", block), start);
      expect(appendGlobalEntry(start, "patterns", blocks.join("\n"))).toBe(oneByOne);
    }
  });
});
