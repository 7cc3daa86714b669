import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES } from "@iflow-memory/parser";
import { readEntryFiles, type EntriesRead } from "./read-entry-files.js";
import { redactEntriesRead } from "./redact-entries-read.js";

export interface KnowledgeBankRead extends EntriesRead {
  /** Other files in the knowledge-bank folder (constitution.md, …): never read as entries. */
  ignoredFiles: string[];
}

/** The knowledge bank's folder inside a project. */
export function knowledgeBankDir(projectRoot: string): string {
  return join(projectRoot, "docs", "knowledge-bank");
}

/**
 * Reads a project's knowledge bank (`docs/knowledge-bank/{anti-patterns,patterns,heuristics}.md`).
 * No folder or no files: no entries and no warning. Secrets in any field of an entry are
 * replaced by `[REDACTED]` (with a warning) unless `raw` — for promotion, which must know them
 * to refuse with --strict, and `doctor`, which reports them.
 *
 * @example
 * const { entries, warnings } = await readKnowledgeBank("/work/webshop");
 */
export async function readKnowledgeBank(projectRoot: string, options: { raw?: boolean } = {}): Promise<KnowledgeBankRead> {
  const directory = knowledgeBankDir(projectRoot);
  const files = await readEntryFiles(directory, "local");
  const read = options.raw === true ? files : redactEntriesRead(files, "the knowledge bank");
  const names = listFiles(directory);
  const known = new Set(CATEGORIES.map((category) => `${category}.md`));
  const ignoredFiles = names.filter((name) => !known.has(name)).map((name) => join(directory, name));
  return { ...read, ignoredFiles };
}

// Synchronous on purpose: at a session start, loading fs/promises costs more than one listing.
function listFiles(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
