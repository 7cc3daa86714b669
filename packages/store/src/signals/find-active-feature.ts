import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseFeatureSpec } from "./parse-feature-spec.js";
import { readCappedFile } from "./read-capped-file.js";

/** The iflow feature a session works on: `docs/features/<id>-<slug>/` and its spec. */
export interface ActiveFeature {
  id: string;
  slug: string;
  /** The spec's first `# ` heading, a leading "Spec:" or "Specification:" removed; else the slug in words. */
  title: string;
  /** The spec's first paragraph of prose, at most 500 characters; `""` without one. */
  summary: string;
}

export interface FindActiveFeatureOptions {
  projectRoot: string;
  branch: string | null;
  /** Changed files, relative to the repository's top folder. */
  changedFiles: readonly string[];
  /** The project root relative to the repository's top folder, with a trailing `/`; `""` when they are the same. */
  projectPrefix?: string;
}

const MAX_FEATURE_FOLDERS = 5000;
const MAX_SPEC_BYTES = 64 * 1024;
const MAX_META_BYTES = 64 * 1024;
const FEATURE_FOLDER = /^(\d+)-(.+)$/;

type Folder = { name: string; id: string; slug: string };

/**
 * The active iflow feature, one of the folders `docs/features/<id>-<slug>/` of the project:
 *
 * 1. the feature whose `<id>-<slug>` appears in the branch name (`feature/034-semantic-memory-retries`),
 *    else the one whose id appears there as a number of its own (`fix/034-timeouts`; `034` ≠ `34`);
 * 2. else the feature whose folder holds the most changed files (on a tie, the higher id);
 * 3. else the only feature whose `.meta.json` says `"status": "active"` (none when several do).
 *
 * Otherwise none: the newest folder is not taken for active, a stale feature is noise. The title
 * and summary come from the feature's `spec.md` (its first 64 KB). Never throws.
 *
 * @example
 * findActiveFeature({ projectRoot: "/work/memory", branch: "feature/034-semantic-memory-retries", changedFiles: [] });
 * // { id: "034", slug: "semantic-memory-retries", title: "Retries for embedding calls",
 * //   summary: "Embedding calls hang when the provider stalls; …" }
 */
export function findActiveFeature(options: FindActiveFeatureOptions): ActiveFeature | null {
  const featuresDir = join(options.projectRoot, "docs", "features");
  let folders: Folder[];
  try {
    folders = readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .slice(0, MAX_FEATURE_FOLDERS)
      .flatMap((entry) => {
        const match = FEATURE_FOLDER.exec(entry.name);
        return match === null ? [] : [{ name: entry.name, id: match[1]!, slug: match[2]! }];
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return null;
  }
  if (folders.length === 0) return null;

  const chosen = byBranch(folders, options.branch) ?? byChangedFiles(folders, options.changedFiles, options.projectPrefix ?? "") ?? byMetadata(folders, featuresDir);
  return chosen === null ? null : describeFeature(join(featuresDir, chosen.name), chosen.id, chosen.slug);
}

function byBranch(folders: readonly Folder[], branch: string | null): Folder | null {
  if (branch === null) return null;
  const lower = branch.toLowerCase();
  const named = folders.filter((folder) => containsWord(lower, folder.name.toLowerCase()));
  if (named.length > 0) return named.reduce((best, folder) => (folder.name.length > best.name.length ? folder : best));
  for (const number of branch.match(/\d+/g) ?? []) {
    const found = folders.find((folder) => folder.id === number);
    if (found !== undefined) return found;
  }
  return null;
}

function byChangedFiles(folders: readonly Folder[], changedFiles: readonly string[], projectPrefix: string): Folder | null {
  const prefix = `${projectPrefix}docs/features/`;
  const counts = new Map<string, number>();
  for (const file of changedFiles) {
    if (!file.startsWith(prefix)) continue;
    const name = file.slice(prefix.length).split("/")[0]!;
    if (name !== "") counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  let best: Folder | null = null;
  for (const folder of folders) {
    const count = counts.get(folder.name) ?? 0;
    if (count === 0) continue;
    const bestCount = best === null ? 0 : counts.get(best.name)!;
    if (count > bestCount || (count === bestCount && Number(folder.id) >= Number(best!.id))) best = folder;
  }
  return best;
}

function byMetadata(folders: readonly Folder[], featuresDir: string): Folder | null {
  const active = folders.filter((folder) => {
    const read = readCappedFile(join(featuresDir, folder.name, ".meta.json"), MAX_META_BYTES);
    if (!("text" in read) || read.truncated) return false;
    try {
      const meta = JSON.parse(read.text) as { status?: unknown };
      return typeof meta.status === "string" && meta.status.toLowerCase() === "active";
    } catch {
      return false;
    }
  });
  return active.length === 1 ? active[0]! : null;
}

function describeFeature(folder: string, id: string, slug: string): ActiveFeature {
  const read = readCappedFile(join(folder, "spec.md"), MAX_SPEC_BYTES);
  const { title, summary } = "text" in read ? parseFeatureSpec(read.text) : { title: null, summary: "" };
  return { id, slug, title: title ?? slug.replace(/[-_]+/g, " "), summary };
}

// `needle` in `haystack`, not inside a longer word or number.
function containsWord(haystack: string, needle: string): boolean {
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if ((before === undefined || !/[a-z0-9]/.test(before)) && (after === undefined || !/[a-z0-9]/.test(after))) return true;
  }
  return false;
}
