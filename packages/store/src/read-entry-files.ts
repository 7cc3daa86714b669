import { join } from "node:path";
import { CATEGORIES, parseKnowledgeBank, type Entry, type Scope } from "@iflow-memory/parser";
import { readCommittedFiles } from "./read-committed-files.js";
import { readTextFile } from "./read-text-file.js";
import type { StoreWarning } from "./store-warning.js";

export interface EntriesRead {
  /** Entries of anti-patterns.md, patterns.md, heuristics.md, in that order. */
  entries: Entry[];
  warnings: StoreWarning[];
}

/**
 * Reads the three category files of one folder; missing files are simply empty. They are read
 * as one commit left them (see `readCommittedFiles`): all before a promotion or all after it.
 */
export async function readEntryFiles(directory: string, scope: Scope): Promise<EntriesRead> {
  const paths = CATEGORIES.map((category) => join(directory, `${category}.md`));
  const results = await readCommittedFiles(directory, paths, (path) => readTextFile(path));
  const files = CATEGORIES.map((category, index) => ({ category, path: paths[index]!, result: results[index]! }));
  const entries: Entry[] = [];
  const warnings: StoreWarning[] = [];
  for (const { category, path, result } of files) {
    if ("warning" in result) warnings.push(result.warning);
    if (!("text" in result)) continue;
    const parsed = parseKnowledgeBank(result.text, { category, scope, path });
    // A loop, not push(...array): a bank of 125,000 entries has more than a call has room for.
    for (const entry of parsed.entries) entries.push(entry);
    for (const warning of parsed.warnings) warnings.push(warning);
  }
  return { entries, warnings };
}
