import type { Entry } from "./entry.js";
import { stripControlCharacters } from "./strip-control-characters.js";

/**
 * An entry as markdown, the way the original printed it: the header line verbatim, then the
 * description and the metadata, each omitted when empty. Ends with one newline. Control
 * characters other than tab and newline (terminal escapes, NUL) are left out: this is the text
 * that reaches an agent's context, a terminal and a page.
 *
 * @example
 * serializeEntry(entry);
 * // "### Pattern: Thin Orchestrator\nKeep SKILL.md thin.\n- Used in: Feature #018\n"
 */
export function serializeEntry(entry: Pick<Entry, "headerLine" | "description" | "metadataText">): string {
  let text = `${entry.headerLine}\n`;
  if (entry.description !== "") text += `${entry.description}\n`;
  if (entry.metadataText !== "") text += `${entry.metadataText}\n`;
  return stripControlCharacters(text);
}
