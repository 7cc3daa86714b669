import { redactEntry } from "@iflow-memory/parser";
import type { EntriesRead } from "./read-entry-files.js";

/**
 * What was read, with every secret in every field of every entry replaced by `[REDACTED]` and a
 * warning for each entry that held one: the read path's one choke point, so that nothing shown,
 * injected, cached, tracked, exported or served over MCP carries a secret, whoever wrote the file.
 * `secretFree` tells the entries known to hold no secret (the same text as one found clean
 * before: `unchangedEntries`), which are not searched again.
 *
 * @example
 * redactEntriesRead(await readEntryFiles(directory, "global"), "the store");
 * // an entry "### Rotate ghp_…" comes back as "### Rotate [REDACTED]", with a warning
 */
export function redactEntriesRead<T extends EntriesRead>(read: T, where: string, secretFree?: (at: number) => boolean): T {
  const warnings = [...read.warnings];
  let changed = false;
  const entries = read.entries.map((entry, at) => {
    if (secretFree?.(at) === true) return entry;
    const { entry: clean, kinds } = redactEntry(entry);
    if (kinds.length === 0) return entry;
    changed = true;
    warnings.push({ path: entry.origin.path, line: entry.origin.line, message: `"${clean.name}" contains a secret (${[...new Set(kinds)].join(", ")}); injected with [REDACTED] in its place — remove it from ${where}` });
    return clean;
  });
  return changed ? { ...read, entries, warnings } : read;
}
