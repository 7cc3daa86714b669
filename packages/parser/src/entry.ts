/** The three knowledge-bank categories; each is also the stem of its file (`anti-patterns.md`). */
export type Category = "anti-patterns" | "heuristics" | "patterns";

export type Confidence = "high" | "medium" | "low";

/** Where an entry was read from: the project's own knowledge bank or the global store. */
export type Scope = "local" | "global";

/**
 * One learning from a knowledge-bank or global-store file. Every package uses this one type.
 *
 * @example
 * const entry: Entry = parseKnowledgeBank(text, { category: "patterns", scope: "local", path }).entries[0];
 * entry.name; // "Thin Orchestrator" (the "Pattern: " prefix removed)
 */
export interface Entry {
  /** Header text with an optional "Anti-Pattern: " | "Pattern: " | "Heuristic: " prefix removed. */
  name: string;
  /** The original "### ..." line, printed verbatim. */
  headerLine: string;
  category: Category;
  /** Lines between the header and the first metadata line, trimmed. */
  description: string;
  /** From the first metadata line to the end of the entry, trimmed, as written. */
  metadataText: string;
  /** "- Key: value" lines at column 0, keys as written; the first occurrence of a key wins. */
  metadata: Record<string, string>;
  /** "- Observation count: N"; 1 when absent or not a whole number. */
  observationCount: number;
  /** "- Confidence: x", case-insensitive; "medium" when absent or unknown. */
  confidence: Confidence;
  /** "- Last observed: ..." as written, or null. */
  lastObserved: string | null;
  /** "- Tags: a, b"; [] when absent. */
  tags: string[];
  /** 1-based index of its "### " line among the file's entry headers (recency proxy). */
  filePosition: number;
  /** hashContent(description). */
  contentHash: string;
  scope: Scope;
  origin: { path: string; line: number };
}

/** Categories in the order their files are read. */
export const CATEGORIES: readonly Category[] = ["anti-patterns", "patterns", "heuristics"];
