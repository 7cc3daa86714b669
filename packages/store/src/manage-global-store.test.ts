import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dedent, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { tagGlobalEntry } from "./manage-global-store.js";

const heuristics = dedent`
  # Global Heuristics

  ### Heuristic: Reproduce Before You Fix
  Write the failing test first when a bug report comes in.
  - Content-Hash: sha256:e28eb938c591b245
  - Source: webshop, Feature #016
  - Observation count: 6
  - tags: universal, testing
  - Confidence: high

  ### Heuristic: Untagged
  An entry without tags.
  - Observation count: 1
`;

describe("tagGlobalEntry", () => {
  it("replaces universal by project-specific and back, keeping the other tags and the key as written, and changes nothing when tagged so already", async () => {
    const store = makeTempDir();
    const path = join(store, "heuristics.md");
    writeFileSync(path, heuristics);
    const { entry, changed } = await tagGlobalEntry(store, "Reproduce Before You Fix", "project-specific");
    expect([entry.tags, changed]).toEqual([["project-specific", "testing"], true]);
    expect(readFileSync(path, "utf8")).toBe(heuristics.replace("- tags: universal, testing", "- tags: project-specific, testing"));
    expect((await tagGlobalEntry(store, "Reproduce Before You Fix", "project-specific")).changed).toBe(false);
    await tagGlobalEntry(store, "Reproduce Before You Fix", "universal");
    expect(readFileSync(path, "utf8")).toBe(heuristics);
  });

  it("adds a Tags line to an entry that has none, after its last line", async () => {
    const store = makeTempDir();
    writeFileSync(join(store, "heuristics.md"), heuristics);
    await tagGlobalEntry(store, "Untagged", "universal");
    expect(readFileSync(join(store, "heuristics.md"), "utf8")).toBe(heuristics.replace("- Observation count: 1", "- Observation count: 1\n- Tags: universal"));
  });

  it("refuses an unknown entry with one line naming what to do", async () => {
    const store = makeTempDir();
    writeFileSync(join(store, "heuristics.md"), heuristics);
    await expect(tagGlobalEntry(store, "ffffffff", "universal")).rejects.toThrow("cannot tag ffffffff: no global entry has that hash or name; see iflow-memory list --scope global");
  });
});
