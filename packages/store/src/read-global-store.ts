import { homedir } from "node:os";
import { join } from "node:path";
import { redactSecrets } from "@iflow-memory/parser";
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
 * Secrets in an entry are replaced by `[REDACTED]` (with a warning), as promotion would have.
 *
 * @example
 * const { entries } = await readGlobalStore(resolveGlobalStoreDir({ env: process.env }));
 */
export async function readGlobalStore(directory: string): Promise<EntriesRead> {
  const read = await readEntryFiles(directory, "global");
  const warnings = [...read.warnings];
  // A global store may have been written by other tools: a secret in it never reaches a session.
  const entries = read.entries.map((entry) => {
    const description = redactSecrets(entry.description);
    const metadata = redactSecrets(entry.metadataText);
    const kinds = [...new Set([...description.findings, ...metadata.findings].map((finding) => finding.kind))];
    if (kinds.length === 0) return entry;
    warnings.push({ path: entry.origin.path, line: entry.origin.line, message: `"${entry.name}" contains a secret (${kinds.join(", ")}); injected with [REDACTED] in its place — remove it from the store` });
    return { ...entry, description: description.text, metadataText: metadata.text };
  });
  return { entries, warnings };
}
