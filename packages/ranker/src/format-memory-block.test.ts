import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { formatMemoryBlock } from "./format-memory-block.js";

describe("formatMemoryBlock", () => {
  it("prints the header, each non-empty category's title and entries in the given order, and the rule", () => {
    const entries = [
      makeEntry({ name: "Retry", category: "anti-patterns", description: "Do not retry blindly.", metadataText: "- Observation count: 2" }),
      makeEntry({ name: "Flags", category: "patterns", description: "", metadataText: "- Used in: Feature #8" }),
      makeEntry({ name: "Mocks", category: "anti-patterns", description: "Fakes hide bugs.", metadataText: "" }),
    ];
    expect(formatMemoryBlock(entries)).toBe(
      "## Engineering Memory (from knowledge bank)\n\n" +
        "### Anti-Patterns to Avoid\n### Anti-Pattern: Retry\nDo not retry blindly.\n- Observation count: 2\n\n### Anti-Pattern: Mocks\nFakes hide bugs.\n\n" +
        "### Patterns to Follow\n### Pattern: Flags\n- Used in: Feature #8\n\n" +
        "---\n",
    );
  });

  it("prints nothing for no entries", () => {
    expect(formatMemoryBlock([])).toBe("");
  });
});
