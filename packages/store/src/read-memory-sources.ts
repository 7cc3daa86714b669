import type { Entry } from "@iflow-memory/parser";
import { readGlobalStore } from "./read-global-store.js";
import { readKnowledgeBank } from "./read-knowledge-bank.js";
import type { StoreWarning } from "./store-warning.js";

export interface MemorySources {
  local: Entry[];
  global: Entry[];
  warnings: StoreWarning[];
  /** Files in the knowledge-bank folder that are not entry files (reported with --verbose). */
  ignoredFiles: string[];
}

/**
 * Everything the read path needs from disk: the project's knowledge bank and, unless
 * `includeGlobal` is false, the global store — read concurrently.
 *
 * @example
 * const sources = await readMemorySources({ projectRoot, globalStoreDir, includeGlobal: true });
 * planInjection({ ...sources, project: projectName(projectRoot), limit: 20, maxChars: null });
 */
export async function readMemorySources(options: {
  projectRoot: string;
  globalStoreDir: string;
  includeGlobal: boolean;
}): Promise<MemorySources> {
  const [bank, store] = await Promise.all([
    readKnowledgeBank(options.projectRoot),
    options.includeGlobal ? readGlobalStore(options.globalStoreDir) : Promise.resolve({ entries: [], warnings: [] }),
  ]);
  return {
    local: bank.entries,
    global: store.entries,
    warnings: [...bank.warnings, ...store.warnings],
    ignoredFiles: bank.ignoredFiles,
  };
}
