import type { Entry } from "./entry.js";

/**
 * An entry as markdown, the way the original printed it: the header line verbatim, then the
 * description and the metadata, each omitted when empty. Ends with one newline.
 *
 * @example
 * serializeEntry(entry);
 * // "### Pattern: Thin Orchestrator\nKeep SKILL.md thin.\n- Used in: Feature #018\n"
 */
export function serializeEntry(entry: Pick<Entry, "headerLine" | "description" | "metadataText">): string {
  let text = `${entry.headerLine}\n`;
  if (entry.description !== "") text += `${entry.description}\n`;
  if (entry.metadataText !== "") text += `${entry.metadataText}\n`;
  return text;
}
