import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Entry } from "@iflow-memory/parser";
import { entryIdentifiers, type ProjectFacts } from "@iflow-memory/ranker";
import { readTextFileSync } from "./read-text-file.js";

// Folders that are not the project's own code, and the knowledge bank itself (its entries would
// find their own identifiers in it).
const SKIPPED_GLOBS = [".git", "node_modules", "dist", "build", "coverage", ".venv", "venv", "__pycache__", "target", ".next", ".turbo", ".cache", "knowledge-bank"].map((folder) => `**/${folder}/**`);
const MAX_FILES = 20_000;
const MAX_SEARCHED_BYTES = 512 * 1024;

/**
 * What ties an entry to this codebase, for `classifyEntry`: the project's name, top-level
 * names, package names, files (found with fast-glob, up to 20,000; dependency and build
 * folders skipped), and where the identifiers the entries name occur in its files.
 *
 * @example
 * const facts = await gatherProjectFacts("/work/webshop", "webshop", entries);
 * facts.identifiers; // { detect_project_root: "hooks/lib/common.sh" }
 */
export async function gatherProjectFacts(projectRoot: string, name: string, entries: readonly Entry[]): Promise<ProjectFacts> {
  // Loaded here, not at the top: the session-start hook shares this package and never needs it.
  const { default: glob } = await import("fast-glob");
  const files = (
    await glob("**/*", { cwd: projectRoot, dot: true, onlyFiles: true, followSymbolicLinks: false, suppressErrors: true, ignore: SKIPPED_GLOBS })
  )
    .sort()
    .slice(0, MAX_FILES);

  const packageNames = files
    .filter((file) => file === "package.json" || file.endsWith("/package.json"))
    .flatMap((file) => {
      const read = readTextFileSync(join(projectRoot, file));
      if (!("text" in read)) return [];
      try {
        const name = (JSON.parse(read.text) as { name?: unknown }).name;
        return typeof name === "string" && name !== "" ? [name] : [];
      } catch {
        return [];
      }
    });

  const wanted = new Set(entries.flatMap((entry) => entryIdentifiers(entry)));
  const identifiers: Record<string, string> = {};
  for (const file of files) {
    if (wanted.size === 0) break;
    // Regular files only, up to MAX_SEARCHED_BYTES: a FIFO or a device in the tree is passed over.
    const read = readTextFileSync(join(projectRoot, file), { maxBytes: MAX_SEARCHED_BYTES });
    if (!("text" in read)) continue;
    const text = read.text;
    for (const identifier of wanted) {
      if (text.includes(identifier) && new RegExp(`(?<![A-Za-z0-9_])${identifier}(?![A-Za-z0-9_])`).test(text)) {
        identifiers[identifier] = file;
        wanted.delete(identifier);
      }
    }
  }

  let topLevelNames: string[] = [];
  try {
    topLevelNames = readdirSync(projectRoot);
  } catch {
    // an unreadable root has no names
  }
  return { name, topLevelNames, packageNames, files, identifiers };
}
