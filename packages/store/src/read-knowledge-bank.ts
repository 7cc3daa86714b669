import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES } from "@iflow-memory/parser";
import type { EntryFileCache } from "./caches/entry-file-cache.js";
import { readEntryFiles, type EntriesRead } from "./read-entry-files.js";

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
 * to refuse with --strict, and `doctor`, which reports them. With `cache`, the redacted entries of
 * each file are kept there and taken from it while the file is unchanged (see `readEntryFiles`).
 *
 * @example
 * const { entries, warnings } = await readKnowledgeBank("/work/webshop");
 */
export async function readKnowledgeBank(projectRoot: string, options: { raw?: boolean; cache?: EntryFileCache; terms?: boolean } = {}): Promise<KnowledgeBankRead> {
  const directory = knowledgeBankDir(projectRoot);
  const cache = options.cache === undefined ? {} : { cache: options.cache, terms: options.terms === true };
  const read = await readEntryFiles(directory, "local", options.raw === true ? {} : { redact: "the knowledge bank", ...cache });
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
