import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { CATEGORIES, hashContent, redactEntry, type Category, type Entry } from "@iflow-memory/parser";
import { classifyEntry } from "@iflow-memory/ranker";
import { commitFiles } from "../commit-files.js";
import { gatherProjectFacts } from "../gather-project-facts.js";
import { formatGlobalEntry, provenanceOf } from "./global-store-text.js";
import { openGlobalStoreFile, type GlobalStoreFile, type StoredObservations } from "./global-store-file.js";
import { readKnowledgeBank } from "../read-knowledge-bank.js";
import { readTextFileSync } from "../read-text-file.js";
import { StoreError } from "../store-error.js";
import { withStoreLock } from "../with-store-lock.js";
import { projectName } from "../write-tracking.js";
import { isoTimestamp } from "../iso-timestamp.js";

/** The store's memory of what each project promoted, beside the category files. */
export const PROMOTIONS_FILE = ".promotions.json";

export type PromoteSelection =
  | { kind: "new" }
  | { kind: "all" }
  | { kind: "names"; names: string[] }
  | { kind: "since"; revision: string }
  /** Entries that are not in the knowledge bank (MCP `store_memory` with global scope). */
  | { kind: "entries"; entries: Entry[] };

export interface PromoteOptions {
  projectRoot: string;
  globalStoreDir: string;
  /** Default: the project root's folder name. */
  project?: string | undefined;
  /** Default: none; the provenance is then the project alone, counted once per entry. */
  feature?: string | undefined;
  /** Default: the entries this project has not promoted (or kept local) before. */
  selection?: PromoteSelection;
  universal?: string[];
  projectSpecific?: string[];
  dryRun?: boolean;
  /** Refuse to promote anything that contains a secret, instead of redacting it. */
  strict?: boolean;
  now?: Date;
}

export interface PromotedEntry {
  name: string;
  category: Category;
  contentHash: string;
  kind: "universal" | "project-specific";
  reason: string;
  /** added: a new global entry; counted: an existing one observed once more; already-counted: this provenance was counted before; kept-local: project-specific. */
  action: "added" | "counted" | "already-counted" | "kept-local";
  /** The global entry's observation count after the promotion (universal entries). */
  observationCount: number | null;
  /** Kinds of the secrets replaced by [REDACTED]. */
  redacted: string[];
}

export interface PromoteResult {
  project: string;
  provenance: string;
  entries: PromotedEntry[];
  summary: string;
  dryRun: boolean;
  warnings: string[];
}

interface PromotionsState {
  projects: Record<string, { promoted: string[]; lastPromotion: string }>;
}

/**
 * Promotes a project's learnings into the global store (DESIGN §4.3): selects entries, redacts
 * secrets (or refuses with `strict`), classifies each as universal or project-specific with a
 * reason, and merges the universal ones — a content-hash match is observed once more (count + 1,
 * `Last observed`, provenance appended), anything else becomes a new entry. The same project and
 * feature never count twice. Every change to the store's files is made under its lock and
 * committed all-or-nothing.
 *
 * @example
 * const result = await promoteEntries({ projectRoot: "/work/webshop", globalStoreDir, feature: "042" });
 * result.summary; // "Memory promotion: 3 universal entries promoted to global store, 1 project-specific entries kept local."
 */
export async function promoteEntries(options: PromoteOptions): Promise<PromoteResult> {
  const project = options.project ?? projectName(options.projectRoot);
  const provenance = provenanceOf(project, options.feature);
  const now = isoTimestamp(options.now ?? new Date());
  const bank = await readKnowledgeBank(options.projectRoot, { raw: true });
  const warnings = bank.warnings.map((warning) => `${warning.path}${warning.line === undefined ? "" : `:${warning.line}`}: ${warning.message}`);

  const run = async (): Promise<PromoteResult> => {
    // The store's files are read while the entries are selected, redacted and the project's facts gathered.
    const opening = Promise.all(CATEGORIES.map(async (category) => [category, await openGlobalStoreFile(options.globalStoreDir, category)] as const));
    opening.catch(() => undefined);
    const state = readState(options.globalStoreDir);
    const seen = new Set(state.projects[project]?.promoted ?? []);
    // An entry named by --universal or --project-specific is promoted (or kept) as asked even when
    // this project promoted it before: naming it is asking for it.
    const named = new Set([...(options.universal ?? []), ...(options.projectSpecific ?? [])].map((name) => name.toLowerCase()));
    const chosen = select(bank.entries, options.selection ?? { kind: "new" }, seen, options.projectRoot, named).filter((entry) => {
      if (entry.description !== "") return true;
      warnings.push(`"${entry.name}" has no description; not promoted`);
      return false;
    });

    // Secrets never reach the store: redacted (or refused) before anything is classified or hashed.
    const prepared = chosen.map((entry) => {
      const { entry: redactedEntry, kinds: redacted } = redactEntry(entry);
      if (redacted.length > 0 && options.strict === true) {
        throw new StoreError("SECRET_FOUND", `refusing to promote "${redactedEntry.name}": it contains a secret (${[...new Set(redacted)].join(", ")}); remove it from the knowledge bank, or promote without --strict to redact it`);
      }
      if (redacted.length > 0) warnings.push(`"${redactedEntry.name}": ${redacted.length} secret${redacted.length === 1 ? "" : "s"} (${[...new Set(redacted)].join(", ")}) replaced by [REDACTED]`);
      const clean: Entry = { ...redactedEntry, contentHash: hashContent(redactedEntry.description) };
      return { entry: clean, redacted };
    });

    const facts = await gatherProjectFacts(options.projectRoot, project, prepared.map(({ entry }) => entry));
    const files = Object.fromEntries(await opening) as Record<Category, GlobalStoreFile>;
    // A content hash is the entry of the first file that has it (in CATEGORIES order), or one
    // this run added; what this run changed of it is kept here.
    const known = new Map<string, { category: Category; added: boolean } & StoredObservations>();
    const find = (contentHash: string) => {
      if (!known.has(contentHash)) {
        for (const category of CATEGORIES) {
          const stored = files[category].find(contentHash);
          if (stored === undefined) continue;
          known.set(contentHash, { category, added: false, ...stored });
          break;
        }
      }
      return known.get(contentHash);
    };
    const results: PromotedEntry[] = [];
    for (const { entry, redacted } of prepared) {
      const classification = classifyEntry(entry, facts, { universal: options.universal ?? [], projectSpecific: options.projectSpecific ?? [] });
      const base = { name: entry.name, category: entry.category, contentHash: entry.contentHash, kind: classification.kind, reason: classification.reason, redacted };
      if (classification.kind === "project-specific") {
        results.push({ ...base, action: "kept-local", observationCount: null });
        continue;
      }
      const match = find(entry.contentHash);
      if (match === undefined) {
        files[entry.category].append(entry.contentHash, formatGlobalEntry({ category: entry.category, name: entry.name, description: entry.description, contentHash: entry.contentHash, sources: [provenance], observationCount: 1, lastObserved: now, tags: "universal", confidence: entry.confidence }));
        known.set(entry.contentHash, { category: entry.category, added: true, observationCount: 1, sources: [provenance] });
        results.push({ ...base, action: "added", observationCount: 1 });
      } else if (match.sources.includes(provenance)) {
        results.push({ ...base, action: "already-counted", observationCount: match.observationCount });
      } else {
        match.observationCount += 1;
        match.sources.push(provenance);
        if (!match.added) files[match.category].observe(entry.contentHash, { observationCount: match.observationCount, lastObserved: now, source: provenance });
        results.push({ ...base, action: "counted", observationCount: match.observationCount });
      }
    }
    // Every file's new content is made and read back before anything is written.
    const changed = CATEGORIES.flatMap((category) => files[category].change() ?? []);

    // What this run promoted: an entry already counted for this provenance changed nothing.
    const universal = results.filter((result) => result.kind === "universal" && result.action !== "already-counted").length;
    const local = results.filter((result) => result.kind === "project-specific").length;
    const summary = `Memory promotion: ${universal} universal entries promoted to global store, ${local} project-specific entries kept local.`;
    if (options.dryRun !== true && results.length > 0) {
      const promoted = [...new Set([...seen, ...chosen.map((entry) => entry.contentHash)])];
      const nextState: PromotionsState = { projects: { ...state.projects, [project]: { promoted, lastPromotion: now } } };
      const { marks } = await commitFiles(options.globalStoreDir, [...changed, { path: join(options.globalStoreDir, PROMOTIONS_FILE), content: `${JSON.stringify(nextState, null, 2)}\n` }]);
      // The next promotion finds entries without parsing the files (and, with their marks, without reading them).
      await Promise.all(CATEGORIES.map((category) => files[category].saveIndex(marks.get(files[category].path))));
    }
    return { project, provenance, entries: results, summary, dryRun: options.dryRun === true, warnings };
  };
  return options.dryRun === true ? run() : withStoreLock(options.globalStoreDir, run);
}

function select(entries: readonly Entry[], selection: PromoteSelection, seen: Set<string>, projectRoot: string, named: ReadonlySet<string>): Entry[] {
  switch (selection.kind) {
    case "all":
      return [...entries];
    case "entries":
      return [...selection.entries];
    case "new":
      return entries.filter((entry) => !seen.has(entry.contentHash) || named.has(entry.name.toLowerCase()));
    case "names": {
      const wanted = selection.names.map((name) => name.toLowerCase());
      const missing = selection.names.filter((name) => !entries.some((entry) => entry.name.toLowerCase() === name.toLowerCase()));
      if (missing.length > 0) {
        throw new StoreError("ENTRY_NOT_FOUND", `cannot promote ${missing.map((name) => `"${name}"`).join(", ")}: no such entry in ${projectRoot}/docs/knowledge-bank; see iflow-memory inject --limit -1 --json for the names`);
      }
      return entries.filter((entry) => wanted.includes(entry.name.toLowerCase()));
    }
    case "since": {
      const added = headersAddedSince(projectRoot, selection.revision);
      return entries.filter((entry) => added.has(entry.headerLine.trim()));
    }
  }
}

// The "### " lines git shows as added to the knowledge bank since a revision (committed or not).
// The revision is the user's text: it is resolved to a commit first, after --end-of-options, so
// that "--output=FILE" is a revision that does not exist, never an option git obeys; only the
// commit's hex id reaches `git diff`.
function headersAddedSince(projectRoot: string, revision: string): Set<string> {
  const git = (args: string[]) => execFileSync("git", ["-C", projectRoot, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const notARevision = (reason: string, cause?: unknown) =>
    new StoreError("GIT_FAILED", `cannot list the entries added since ${JSON.stringify(revision)}: ${reason}; pass a revision of this repository, or use --all`, { cause });
  if (revision.startsWith("-") || revision === "" || /[\0-\x1f]/.test(revision)) throw notARevision("it is not a revision");
  let commit: string;
  try {
    commit = git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`]).trim();
  } catch (error) {
    const said = ((error as { stderr?: string }).stderr ?? "").trim().split("\n")[0];
    throw notARevision(said === undefined || said === "" ? "git knows no such commit" : `git says: ${said}`, error);
  }
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw notARevision("git knows no such commit");
  let diff: string;
  try {
    diff = git(["diff", "--no-color", "--unified=0", commit, "--", "docs/knowledge-bank"]);
  } catch (error) {
    const reason = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split("\n")[0];
    throw new StoreError("GIT_FAILED", `cannot list the entries added since ${revision}: git says: ${reason}; pass a revision of this repository, or use --all`, { cause: error });
  }
  return new Set(diff.split("\n").filter((line) => line.startsWith("+### ")).map((line) => line.slice(1).trim()));
}

function readState(directory: string): PromotionsState {
  const file = readTextFileSync(join(directory, PROMOTIONS_FILE));
  if (!("text" in file)) return { projects: {} };
  try {
    const state = JSON.parse(file.text) as Partial<PromotionsState>;
    return { projects: state.projects !== null && typeof state.projects === "object" ? state.projects : {} };
  } catch {
    return { projects: {} };
  }
}
