import type { Entry } from "@iflow-memory/parser";
import { sourceItems } from "@iflow-memory/store";

/** A metadata value by its key, case-insensitive, as the parser keeps keys as written. */
export function metadataValue(entry: Entry, key: string): string | undefined {
  return Object.entries(entry.metadata).find(([name]) => name.toLowerCase() === key.toLowerCase())?.[1];
}

/**
 * The projects an entry comes from: the viewed project for a local entry, the projects its
 * `Source` names for a global one (`webshop, Feature #016; infra-tools` → webshop, infra-tools).
 */
export function entryProjects(entry: Entry, project: string): string[] {
  if (entry.scope === "local") return [project];
  return [...new Set(sourceItems(metadataValue(entry, "Source")).map((item) => item.split(",")[0]!.trim()).filter((name) => name !== ""))];
}

/** The description's first sentence or so, for a list. */
export function excerpt(text: string, length = 220): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1).trimEnd()}…`;
}
