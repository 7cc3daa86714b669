import type { Entry } from "@iflow-memory/parser";

/** What ties entries to one codebase, gathered from the project by the store. */
export interface ProjectFacts {
  /** The project's name (its root folder's name, or --project). */
  name: string;
  /** Names at the project's top level (files and folders). */
  topLevelNames: string[];
  /** Package names declared in the project (package.json `name` fields). */
  packageNames: string[];
  /** Relative paths of the project's files. */
  files: string[];
  /** Identifiers named by entries that occur in the project's files: identifier → a file that has it. */
  identifiers: Record<string, string>;
}

export interface Classification {
  kind: "universal" | "project-specific";
  /** One line, e.g. "Project-specific because: names file hooks/session-start.sh". */
  reason: string;
}

// Top-level folders every project has: naming one does not tie a learning to this codebase.
const GENERIC_FOLDERS = new Set(["src", "lib", "test", "tests", "docs", "doc", "bin", "build", "dist", "scripts", "examples", "packages", "apps", "node_modules", "vendor", "tmp", "assets", "public", "config"]);
const PATH = /(?:^|[\s`("'])((?:\.?[\w@-][\w.@-]*\/)+[\w.@-]*[\w-])/g;

/**
 * Universal or project-specific, with a one-line reason. Explicit choices win; otherwise an
 * entry is project-specific when it names a file path of the project, the project itself, one
 * of its packages, one of its own top-level folders, or an identifier found in its files.
 *
 * @example
 * classifyEntry(entry, facts, { universal: [], projectSpecific: [] });
 * // { kind: "project-specific", reason: "Project-specific because: names file hooks/session-start.sh" }
 */
export function classifyEntry(entry: Entry, facts: ProjectFacts, overrides: { universal: readonly string[]; projectSpecific: readonly string[] }): Classification {
  const named = (names: readonly string[]) => names.some((name) => name.toLowerCase() === entry.name.toLowerCase());
  if (named(overrides.projectSpecific)) return { kind: "project-specific", reason: "Project-specific because: --project-specific names it" };
  if (named(overrides.universal)) return { kind: "universal", reason: "Universal because: --universal names it" };

  const text = `${entry.name}\n${entry.description}\n${entry.metadataText}`;
  const specific = (why: string): Classification => ({ kind: "project-specific", reason: `Project-specific because: ${why}` });

  const files = new Set(facts.files);
  const topLevel = new Set(facts.topLevelNames);
  for (const match of text.matchAll(PATH)) {
    const path = match[1]!.replace(/^\.\//, "").replace(/[.,;:]+$/, "");
    if (path.includes("://") || text.slice(Math.max(0, match.index - 8), match.index + 1).includes("://")) continue;
    const segments = path.split("/");
    const first = segments[0]!;
    // "4.1/4.3" is a pair of section numbers, "spec.md/plan.md" a pair of alternatives: not paths.
    if (/^[\d.]+$/.test(first) || segments.slice(0, -1).some((segment) => /^[^.].*\.[A-Za-z0-9]{1,6}$/.test(segment))) continue;
    if (files.has(path) || files.has(path.replace(/\/$/, "")) || (topLevel.has(first) && !GENERIC_FOLDERS.has(first)) || /\.[A-Za-z0-9]{1,6}$/.test(path)) {
      return specific(`names file ${path}`);
    }
  }
  if (facts.name.length >= 3 && wordIn(text, facts.name)) return specific(`names the project ${facts.name}`);
  for (const name of facts.packageNames) {
    if (name.length >= 4 && name !== facts.name && wordIn(text, name)) return specific(`names the package ${name}`);
  }
  for (const name of facts.topLevelNames) {
    if (GENERIC_FOLDERS.has(name) || name.startsWith(".") || name.length < 4) continue;
    if (new RegExp(`\`${escape(name)}/?\`|(?:^|[\\s(])${escape(name)}/`, "i").test(text)) return specific(`names the folder ${name}/`);
  }
  for (const identifier of entryIdentifiers(entry)) {
    const file = facts.identifiers[identifier];
    if (file !== undefined) return specific(`names identifier ${identifier} (in ${file})`);
  }
  return { kind: "universal", reason: "Universal because: names no file, package, folder or identifier of this project" };
}

/**
 * The code-like names an entry mentions — snake_case, camelCase, SCREAMING_CASE, `call()` — for
 * the store to look up in the project's files.
 *
 * @example
 * entryIdentifiers(entry); // ["detect_project_root", "PROJECT_ROOT"]
 */
export function entryIdentifiers(entry: Pick<Entry, "name" | "description" | "metadataText">): string[] {
  const text = `${entry.name}\n${entry.description}\n${entry.metadataText}`;
  const found = new Set<string>();
  for (const match of text.matchAll(/\b([A-Za-z_][A-Za-z0-9_]{3,})\b/g)) {
    const word = match[1]!;
    const codeLike = /_/.test(word.slice(1, -1)) || /[a-z][A-Z]/.test(word) || text.startsWith("()", match.index + word.length);
    if (codeLike) found.add(word);
  }
  return [...found];
}

function wordIn(text: string, word: string): boolean {
  return new RegExp(`(?<![\\w@/-])${escape(word)}(?![\\w/-])`, "i").test(text);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
