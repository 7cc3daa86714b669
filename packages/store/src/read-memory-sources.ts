import type { Entry } from "@iflow-memory/parser";
import type { PackedEntryTerms } from "@iflow-memory/ranker";
import type { EntryFileCache } from "./caches/entry-file-cache.js";
import type { EntriesRead, MemoryFileRead } from "./read-entry-files.js";
import { readGlobalStore } from "./read-global-store.js";
import { readKnowledgeBank } from "./read-knowledge-bank.js";
import type { StoreWarning } from "./store-warning.js";

export interface MemorySources {
  local: Entry[];
  global: Entry[];
  warnings: StoreWarning[];
  /** Files in the knowledge-bank folder that are not entry files (reported with --verbose). */
  ignoredFiles: string[];
  /** With a cache: the terms kept with the entries, by entry, for `buildRelevanceIndex` (see `readEntryFiles`). */
  terms?: Map<Entry, PackedEntryTerms>;
  /** With a cache and `terms`: the memory files read, the knowledge bank's then the global store's (`MemoryFileRead`). */
  files?: MemoryFileRead[];
}

/**
 * Everything the read path needs from disk: the project's knowledge bank and, unless
 * `includeGlobal` is false, the global store — read concurrently. With `cache` (the global store's
 * `.cache` and the build's salt), a file unchanged since it was last read is not parsed again.
 *
 * @example
 * const sources = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
 * planInjection({ ...sources, project: projectName(projectRoot), limit: 20, maxChars: null });
 */
export async function readMemorySources(options: {
  projectRoot: string;
  globalStoreDir: string;
  includeGlobal: boolean;
  cache?: EntryFileCache;
  /** With `cache`: give the terms kept with the entries, for relevance's index (`MemorySources.terms`). */
  terms?: boolean;
}): Promise<MemorySources> {
  const cache = options.cache === undefined ? {} : { cache: options.cache, terms: options.terms === true };
  const [bank, store] = await Promise.all([
    readKnowledgeBank(options.projectRoot, cache),
    options.includeGlobal ? readGlobalStore(options.globalStoreDir, cache) : Promise.resolve<EntriesRead>({ entries: [], warnings: [] }),
  ]);
  return {
    local: bank.entries,
    global: store.entries,
    warnings: [...bank.warnings, ...store.warnings],
    ignoredFiles: bank.ignoredFiles,
    ...(bank.terms === undefined ? {} : { terms: joinTerms(bank.terms, store.terms) }),
    ...(bank.files === undefined ? {} : { files: [...bank.files, ...(store.files ?? [])] }),
  };
}

function joinTerms(terms: Map<Entry, PackedEntryTerms>, more: ReadonlyMap<Entry, PackedEntryTerms> | undefined): Map<Entry, PackedEntryTerms> {
  for (const [entry, kept] of more ?? []) terms.set(entry, kept);
  return terms;
}
