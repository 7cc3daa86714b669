import { join } from "node:path";
import { CATEGORIES, parseKnowledgeBank, type Entry, type Scope } from "@iflow-memory/parser";
import { readTextFile } from "./read-text-file.js";
import type { StoreWarning } from "./store-warning.js";

export interface EntriesRead {
  /** Entries of anti-patterns.md, patterns.md, heuristics.md, in that order. */
  entries: Entry[];
  warnings: StoreWarning[];
}

/** Reads the three category files of one folder; missing files are simply empty. */
export async function readEntryFiles(directory: string, scope: Scope): Promise<EntriesRead> {
  const files = await Promise.all(
    CATEGORIES.map(async (category) => {
      const path = join(directory, `${category}.md`);
      return { category, path, result: await readTextFile(path) };
    }),
  );
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
