import type { Entry } from "@iflow-memory/parser";

/**
 * Drops global entries tagged `project-specific` whose `Source` does not name `project`
 * (a project-specific learning is only worth injecting into its own project). Local entries and
 * global entries without that tag pass through.
 *
 * @example
 * // Source: "webshop, Feature #027; notes-app, Feature #031", Tags: "project-specific"
 * excludeOtherProjectsEntries([entry], "webshop");  // [entry]
 * excludeOtherProjectsEntries([entry], "infra");    // []
 */
export function excludeOtherProjectsEntries<T extends Entry>(entries: readonly T[], project: string): T[] {
  const wanted = project.trim().toLowerCase();
  return entries.filter((entry) => {
    if (entry.scope !== "global") return true;
    if (!entry.tags.some((tag) => tag.toLowerCase() === "project-specific")) return true;
    return sourceProjects(entry).includes(wanted);
  });
}

/** "webshop, Feature #027; notes-app, Feature #031" → ["webshop", "notes-app"]. */
function sourceProjects(entry: Entry): string[] {
  const source = Object.entries(entry.metadata).find(([key]) => key.toLowerCase() === "source")?.[1] ?? "";
  return source
    .split(";")
    .map((item) => (item.split(",")[0] ?? "").trim().toLowerCase())
    .filter((name) => name !== "");
}
