import { homedir } from "node:os";
import { join } from "node:path";
import type { EntryFileCache } from "./caches/entry-file-cache.js";
import { readEntryFiles, type EntriesRead } from "./read-entry-files.js";

/**
 * Where the global store is: the `--global-store` flag, else `IFLOW_MEMORY_HOME`, else
 * `~/.claude/iflow/memory` (HOME from `env`, falling back to the OS's home directory).
 *
 * @example
 * resolveGlobalStoreDir({ env: { HOME: "/home/ada" } }); // "/home/ada/.claude/iflow/memory"
 */
export function resolveGlobalStoreDir(options: { flag?: string | undefined; env: Record<string, string | undefined> }): string {
  if (options.flag !== undefined && options.flag !== "") return options.flag;
  const fromEnv = options.env.IFLOW_MEMORY_HOME;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const home = options.env.HOME !== undefined && options.env.HOME !== "" ? options.env.HOME : homedir();
  return join(home, ".claude", "iflow", "memory");
}

/**
 * Reads the global store's three category files; a store that does not exist yet is empty.
 * Secrets in any field of an entry are replaced by `[REDACTED]` (with a warning), as promotion would have.
 * With `cache`, each file's entries are kept there and taken from it while the file is unchanged.
 *
 * @example
 * const { entries } = await readGlobalStore(resolveGlobalStoreDir({ env: process.env }));
 */
export async function readGlobalStore(directory: string, options: { cache?: EntryFileCache; terms?: boolean } = {}): Promise<EntriesRead> {
  // A global store may have been written by other tools: a secret in it never reaches a session.
  return readEntryFiles(directory, "global", { redact: "the store", ...options });
}
