import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseKnowledgeBank, type Entry } from "@iflow-memory/parser";
import { CORPORA_DIR } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { classifyEntry, entryIdentifiers, type ProjectFacts } from "./classify-entry.js";

const facts: ProjectFacts = {
  name: "iflow",
  topLevelNames: [".git", "docs", "plugins", "README.md", "src"],
  packageNames: ["@iflow/secretary"],
  files: ["plugins/iflow/hooks/lib/common.sh", "plugins/iflow/hooks/session-start.sh", "README.md"],
  identifiers: { detect_project_root: "plugins/iflow/hooks/lib/common.sh" },
};
const none = { universal: [], projectSpecific: [] };

function realEntry(name: string): Entry {
  for (const category of ["anti-patterns", "heuristics", "patterns"] as const) {
    const text = readFileSync(join(CORPORA_DIR, "iflow-kb-2026-04/docs/knowledge-bank", `${category}.md`), "utf8");
    const entry = parseKnowledgeBank(text, { category, scope: "local", path: category }).entries.find((candidate) => candidate.name === name);
    if (entry !== undefined) return entry;
  }
  throw new Error(`no entry ${name}`);
}

describe("classifyEntry", () => {
  it("keeps a real entry local when it names an identifier found in the project's files", () => {
    expect(classifyEntry(realEntry("Relative Paths in Hooks"), facts, none)).toEqual({
      kind: "project-specific",
      reason: "Project-specific because: names identifier detect_project_root (in plugins/iflow/hooks/lib/common.sh)",
    });
  });

  it("keeps a real entry local when it names a file path", () => {
    expect(classifyEntry(realEntry("PROJECT_ROOT vs PLUGIN_ROOT in Hooks"), facts, none)).toEqual({ kind: "project-specific", reason: "Project-specific because: names file hooks/lib/common.sh" });
  });

  it("promotes real general wisdom as universal, saying why", () => {
    expect(classifyEntry(realEntry("Over-Granular Tasks"), facts, none)).toEqual({ kind: "universal", reason: "Universal because: names no file, package, folder or identifier of this project" });
  });

  it("keeps an entry local when it names the project, one of its packages or one of its own folders", () => {
    const reasons = [
      makeEntry({ name: "A", description: "In iflow, the secretary routes first." }),
      makeEntry({ name: "B", description: "Bump @iflow/secretary before the plugin." }),
      makeEntry({ name: "C", description: "Everything under plugins/ is cached by Claude Code." }),
    ].map((entry) => classifyEntry(entry, facts, none).reason);
    expect(reasons).toEqual([
      "Project-specific because: names the project iflow",
      "Project-specific because: names the package @iflow/secretary",
      "Project-specific because: names the folder plugins/",
    ]);
  });

  it("does not take section numbers, alternatives, URLs or generic folders for paths", () => {
    const entry = makeEntry({ name: "Plain", description: "See sections 4.1/4.3, write spec.md/plan.md first, read https://example.com/a/b.html, keep tests in src/ and input/output clean." });
    expect(classifyEntry(entry, facts, none).kind).toBe("universal");
  });

  it("lets the explicit choices win over the heuristic", () => {
    const entry = realEntry("Relative Paths in Hooks");
    expect([
      classifyEntry(entry, facts, { universal: ["relative paths in hooks"], projectSpecific: [] }),
      classifyEntry(realEntry("Over-Granular Tasks"), facts, { universal: [], projectSpecific: ["Over-Granular Tasks"] }),
    ]).toEqual([
      { kind: "universal", reason: "Universal because: --universal names it" },
      { kind: "project-specific", reason: "Project-specific because: --project-specific names it" },
    ]);
  });
});

describe("entryIdentifiers", () => {
  it("lists the code-like names an entry mentions", () => {
    expect(entryIdentifiers(makeEntry({ name: "X", description: "Call detect_project_root() or parseConfig, not PROJECT_ROOT or plain words." }))).toEqual(["detect_project_root", "parseConfig", "PROJECT_ROOT"]);
  });
});
