import { join } from "node:path";
import { CATEGORIES, parseKnowledgeBank, redactEntry, type Category, type Entry } from "@iflow-memory/parser";
import { CATEGORY_PRIORITY, sortEntries } from "@iflow-memory/ranker";
import { commitFiles } from "./commit-files.js";
import { recordMetadata } from "./promotion/index.js";
import { readGlobalStore } from "./read-global-store.js";
import { readKnowledgeBank } from "./read-knowledge-bank.js";
import { readTextFile, readTextFileSync } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { withStoreLock } from "./with-store-lock.js";
import { isoTimestamp } from "./iso-timestamp.js";

/** Where forgotten global entries go: never deleted. */
export const ARCHIVE_FILE = ".archive.md";

export type ListScope = "local" | "global" | "all";

/**
 * The entries of a project and/or the global store, in injection order within each category
 * (anti-patterns, heuristics, patterns), local before global.
 *
 * @example
 * const { entries } = await listEntries({ projectRoot, globalStoreDir, scope: "global" });
 */
export async function listEntries(options: { projectRoot: string; globalStoreDir: string; scope?: ListScope; category?: Category }): Promise<{ entries: Entry[]; warnings: string[] }> {
  const scope = options.scope ?? "all";
  const local = scope === "global" ? { entries: [], warnings: [] } : await readKnowledgeBank(options.projectRoot);
  const global = scope === "local" ? { entries: [], warnings: [] } : await readGlobalStore(options.globalStoreDir);
  const entries = CATEGORY_PRIORITY.filter((category) => options.category === undefined || category === options.category).flatMap((category) => [
    ...sortEntries(local.entries.filter((entry) => entry.category === category)),
    ...sortEntries(global.entries.filter((entry) => entry.category === category)),
  ]);
  const warnings = [...local.warnings, ...global.warnings].map((warning) => `${warning.path}${warning.line === undefined ? "" : `:${warning.line}`}: ${warning.message}`);
  return { entries, warnings };
}

/**
 * The entries a user means by `query`: a content hash (`sha256:…`, the 16 hex digits, or a
 * prefix of at least 4), else a name (case-insensitive).
 *
 * @example
 * findEntries(entries, "0baa2a5b"); // [the entry whose hash starts with it]
 */
export function findEntries(entries: readonly Entry[], query: string): Entry[] {
  const hash = query.trim().toLowerCase().replace(/^sha256:/, "");
  if (/^[0-9a-f]{4,16}$/.test(hash)) {
    const byHash = entries.filter((entry) => entry.contentHash.startsWith(hash));
    if (byHash.length > 0) return byHash;
  }
  return entries.filter((entry) => entry.name.toLowerCase() === query.trim().toLowerCase());
}

/**
 * The one entry `query` names (as `findEntries` reads it): a project's copy and the global
 * store's share a content hash and count as one, `prefer`'s copy returned when there are both.
 * When it names none, or several distinct entries, throws ENTRY_NOT_FOUND in one line:
 * `<action>: <notFound>`, or `<action>: it matches N entries (…); give more of the hash`.
 *
 * @example
 * findOneEntry(entries, "0baa2a5b", { action: "cannot forget 0baa2a5b", notFound: "no global entry has that hash or name; see iflow-memory list --scope global" });
 */
export function findOneEntry(entries: readonly Entry[], query: string, options: { action: string; notFound: string; prefer?: Entry["scope"] }): Entry {
  const found = findEntries(entries, query);
  const hashes = [...new Set(found.map((entry) => entry.contentHash))];
  if (hashes.length === 0) throw new StoreError("ENTRY_NOT_FOUND", `${options.action}: ${options.notFound}`);
  if (hashes.length > 1) {
    const named = hashes.map((hash) => `sha256:${hash} ${found.find((entry) => entry.contentHash === hash)!.name}`);
    throw new StoreError("ENTRY_NOT_FOUND", `${options.action}: it matches ${hashes.length} entries (${named.join("; ")}); give more of the hash`);
  }
  return found.find((entry) => entry.scope === options.prefer) ?? found[0]!;
}

/**
 * Moves a global entry to `.archive.md` in the store (never deletes it), all-or-nothing, under
 * the store's lock; entries contested with it stop naming it.
 *
 * @example
 * await forgetGlobalEntry(globalStoreDir, "0baa2a5b"); // the archived entry
 */
export async function forgetGlobalEntry(globalStoreDir: string, query: string, now = new Date()): Promise<Entry> {
  return withStoreLock(globalStoreDir, async () => {
    const files = await readStoreFiles(globalStoreDir);
    const entry = uniqueEntry(files, query, "forget");
    const text = files[entry.category].text;
    const lines = text.split("\n");
    const start = entry.origin.line - 1;
    let end = start + 1;
    while (end < lines.length && !/^#{1,3} /.test(lines[end]!)) end++;
    const removed = lines.slice(start, end).join("\n").trimEnd();
    const texts = Object.fromEntries(CATEGORIES.map((category) => [category, files[category].text])) as Record<Category, string>;
    texts[entry.category] = [...lines.slice(0, start), ...lines.slice(end)].join("\n");
    // Entries contested with the forgotten one stop naming it.
    const changed = new Set<Category>([entry.category]);
    for (const category of CATEGORIES) {
      const current = parseKnowledgeBank(texts[category], { category, scope: "global", path: category }).entries;
      for (const other of [...current].reverse()) {
        const contest = Object.entries(other.metadata).find(([key]) => key.toLowerCase() === "contested with")?.[1];
        if (contest === undefined || !contest.includes(entry.contentHash)) continue;
        const rest = contest.split(";").map((item) => item.trim()).filter((item) => item !== "" && !item.includes(entry.contentHash));
        texts[category] = recordMetadata(texts[category], other.origin.line, "Contested with", rest.join("; "), { removeWhenEmpty: true });
        changed.add(category);
      }
    }
    const archivePath = join(globalStoreDir, ARCHIVE_FILE);
    const archive = await readTextFile(archivePath);
    const archiveText = "text" in archive ? archive.text : "# Archived global entries\n\nEntries removed with `iflow-memory forget`, kept here instead of deleted.\n";
    const stamp = isoTimestamp(now);
    await commitFiles(globalStoreDir, [
      ...[...changed].map((category) => ({ path: join(globalStoreDir, `${category}.md`), content: texts[category] })),
      { path: archivePath, content: `${archiveText.endsWith("\n") ? archiveText : `${archiveText}\n`}\n${removed}\n- Archived: ${stamp} (from ${entry.category}.md)\n` },
    ]);
    return entry;
  });
}

/**
 * Marks two global entries as contradicting each other: each gets a `- Contested with:` line
 * naming the other, which every injection of it shows.
 *
 * @example
 * await contestGlobalEntries(globalStoreDir, "0baa2a5b", "491b5e15"); // [entryA, entryB]
 */
export async function contestGlobalEntries(globalStoreDir: string, queryA: string, queryB: string): Promise<[Entry, Entry]> {
  return withStoreLock(globalStoreDir, async () => {
    const files = await readStoreFiles(globalStoreDir);
    const a = uniqueEntry(files, queryA, "contest");
    const b = uniqueEntry(files, queryB, "contest");
    if (a.contentHash === b.contentHash) throw new StoreError("ENTRY_NOT_FOUND", `cannot contest ${queryA} with itself; name two different entries`);
    const texts = Object.fromEntries(CATEGORIES.map((category) => [category, files[category].text])) as Record<Category, string>;
    // Edit the later entry first when both are in one file, so that the earlier one's line number still holds.
    const edits = [
      { entry: a, other: b },
      { entry: b, other: a },
    ].sort((x, y) => (x.entry.category === y.entry.category ? y.entry.origin.line - x.entry.origin.line : 0));
    for (const { entry, other } of edits) {
      const mention = `${other.name} (sha256:${other.contentHash})`;
      const existing = Object.entries(entry.metadata).find(([key]) => key.toLowerCase() === "contested with")?.[1];
      if (existing?.includes(other.contentHash) === true) continue;
      texts[entry.category] = recordMetadata(texts[entry.category], entry.origin.line, "Contested with", existing === undefined || existing === "" ? mention : `${existing}; ${mention}`);
    }
    const changed = [...new Set([a.category, b.category])];
    await commitFiles(globalStoreDir, changed.map((category) => ({ path: join(globalStoreDir, `${category}.md`), content: texts[category] })));
    return [a, b];
  });
}

/** How a global entry is tagged: injected into every project, or only into those its `Source` names. */
export type EntryReach = "universal" | "project-specific";

/**
 * Re-tags a global entry `universal` (injected into every project) or `project-specific`
 * (injected only into the projects its `Source` names), keeping its other tags; all-or-nothing,
 * under the store's lock, like `forgetGlobalEntry`. `changed` is false when it was tagged so already.
 *
 * @example
 * await tagGlobalEntry(globalStoreDir, "a58f264b", "universal"); // { entry, changed: true }
 */
export async function tagGlobalEntry(globalStoreDir: string, query: string, reach: EntryReach): Promise<{ entry: Entry; changed: boolean }> {
  return withStoreLock(globalStoreDir, async () => {
    const files = await readStoreFiles(globalStoreDir);
    const entry = uniqueEntry(files, query, "tag");
    const others = entry.tags.filter((tag) => !["universal", "project-specific"].includes(tag.toLowerCase()));
    const tags = [reach, ...others];
    if (entry.tags.length === tags.length && entry.tags.every((tag, index) => tag === tags[index])) return { entry, changed: false };
    const text = recordMetadata(files[entry.category].text, entry.origin.line, tagsKey(entry), tags.join(", "));
    await commitFiles(globalStoreDir, [{ path: join(globalStoreDir, `${entry.category}.md`), content: text }]);
    return { entry: { ...entry, tags }, changed: true };
  });
}

// The key as the entry writes it ("Tags", "tags"), so that the line is replaced, not doubled.
function tagsKey(entry: Entry): string {
  return Object.keys(entry.metadata).find((key) => key.toLowerCase() === "tags") ?? "Tags";
}

async function readStoreFiles(directory: string): Promise<Record<Category, { text: string; entries: Entry[] }>> {
  const result = {} as Record<Category, { text: string; entries: Entry[] }>;
  for (const category of CATEGORIES) {
    const path = join(directory, `${category}.md`);
    const file = await readTextFile(path, { lossless: true });
    if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read ${path}: ${file.warning.message}`);
    const text = "text" in file ? file.text : "";
    // Entries locate lines to change; what is said about them never carries a secret.
    result[category] = { text, entries: parseKnowledgeBank(text, { category, scope: "global", path }).entries.map((entry) => redactEntry(entry).entry) };
  }
  return result;
}

function uniqueEntry(files: Record<Category, { entries: Entry[] }>, query: string, verb: string): Entry {
  const all = CATEGORIES.flatMap((category) => files[category].entries);
  return findOneEntry(all, query, { action: `cannot ${verb} ${query}`, notFound: "no global entry has that hash or name; see iflow-memory list --scope global" });
}

/** The raw text of the tracking file, parsed, or null. */
export function readLastInjection(globalStoreDir: string): Record<string, unknown> | null {
  const file = readTextFileSync(join(globalStoreDir, ".last-injection.json"));
  if (!("text" in file)) return null;
  try {
    return JSON.parse(file.text) as Record<string, unknown>;
  } catch {
    return null;
  }
}
