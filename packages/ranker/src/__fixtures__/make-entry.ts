import { hashContent, type Entry } from "@iflow-memory/parser";

/** An entry for tests: only what a test sets differs from a plain local pattern. */
export function makeEntry(fields: Partial<Entry> & { name: string }): Entry {
  const description = fields.description ?? `${fields.name} description.`;
  const prefix = { "anti-patterns": "Anti-Pattern", heuristics: "Heuristic", patterns: "Pattern" }[fields.category ?? "patterns"];
  return {
    headerLine: `### ${prefix}: ${fields.name}`,
    category: "patterns",
    metadataText: "",
    metadata: {},
    observationCount: 1,
    confidence: "medium",
    lastObserved: null,
    tags: [],
    filePosition: 1,
    scope: "local",
    origin: { path: "test.md", line: 1 },
    ...fields,
    description,
    contentHash: fields.contentHash ?? hashContent(description),
  };
}
