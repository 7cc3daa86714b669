import type { Category, Entry } from "@iflow-memory/parser";
import { CATEGORY_PRIORITY } from "./select-entries.js";

/** How the agent can get an indexed entry's full text: the MCP server's tools, or the command line. */
export type MemoryFetch = "mcp" | "cli";

/**
 * The heading of the index of entries not shown in full, saying how to get their text: the model
 * reads the titles and fetches what bears on its task (progressive disclosure).
 */
export const MEMORY_INDEX_HEADINGS: Readonly<Record<MemoryFetch, string>> = {
  mcp:
    "### More in memory (titles only)\n" +
    "When one of these bears on the task, read it in full before you act: the iflow-memory MCP tool `get_memory` with its hash; `search_memory` finds others by topic.\n",
  cli:
    "### More in memory (titles only)\n" +
    "When one of these bears on the task, read it in full before you act: run `iflow-memory show HASH`; `iflow-memory search WORDS` finds others by topic.\n",
};

/** The length of the longer heading: what a block keeps room for, whichever it shows. */
export const LONGEST_INDEX_HEADING = Math.max(MEMORY_INDEX_HEADINGS.mcp.length, MEMORY_INDEX_HEADINGS.cli.length);

/**
 * The block with its index's heading telling the agent to fetch with `fetch` (the block was
 * planned with the other one; both fit its budget). A block without an index is returned as it is.
 *
 * @example
 * withIndexFetch(plan.block, "cli"); // "…### More in memory (titles only)\n… run `iflow-memory show HASH` …"
 */
export function withIndexFetch(block: string, fetch: MemoryFetch): string {
  const other = MEMORY_INDEX_HEADINGS[fetch === "mcp" ? "cli" : "mcp"];
  // The last one: the index follows every entry, whose text could hold the same words.
  const at = block.lastIndexOf(other);
  return at < 0 ? block : block.slice(0, at) + MEMORY_INDEX_HEADINGS[fetch] + block.slice(at + other.length);
}

/** Hex digits of a content hash an index line shows, unless another candidate shares them. */
export const INDEX_HASH_DIGITS = 8;
/** Characters of a title an index line keeps. */
const TITLE_MAX = 120;

/**
 * The short hashes to show for `entries`: the first `INDEX_HASH_DIGITS` hex digits of each
 * content hash, or the whole hash where another of `among` starts the same way (so that
 * `get_memory` and `show` resolve every line to one entry). `among` may be given as the
 * prefixes that two or more of them share (`sharedHashPrefixes`), worked out once beforehand.
 *
 * @example
 * shortHashes(candidates)(entry.contentHash); // "184d7223"
 */
export function shortHashes(among: readonly Pick<Entry, "contentHash">[] | { shared: readonly string[] }): (hash: string) => string {
  const shared = new Set("shared" in among ? among.shared : sharedHashPrefixes(among));
  return (hash) => {
    const prefix = hash.slice(0, INDEX_HASH_DIGITS);
    return shared.has(prefix) ? hash : prefix;
  };
}

/**
 * The prefixes of `INDEX_HASH_DIGITS` hex digits that two or more of `among` start with: where
 * `shortHashes` shows the whole hash. Almost always none.
 *
 * @example
 * sharedHashPrefixes(candidates); // []
 */
export function sharedHashPrefixes(among: readonly Pick<Entry, "contentHash">[]): string[] {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const entry of among) {
    const prefix = entry.contentHash.slice(0, INDEX_HASH_DIGITS);
    if (seen.has(prefix)) shared.add(prefix);
    else seen.add(prefix);
  }
  return [...shared];
}

/** The index groups its lines by category, under these titles (in the block's order of categories). */
export const INDEX_CATEGORY_TITLES: Readonly<Record<Category, string>> = {
  "anti-patterns": "Anti-patterns:\n",
  heuristics: "Heuristics:\n",
  patterns: "Patterns:\n",
};

/**
 * One line of the index: the entry's short hash and its name (one line, control characters
 * removed, at most 120 characters); its category is the title it stands under.
 *
 * @example
 * formatIndexLine(entry, "184d7223"); // "- `184d7223` Trusting Line Numbers From an Old Plan\n"
 */
export function formatIndexLine(entry: Pick<Entry, "name">, shortHash: string): string {
  // eslint-disable-next-line no-control-regex
  let title = entry.name.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  if (title.length > TITLE_MAX) title = `${title.slice(0, TITLE_MAX - 1).trimEnd()}…`;
  return `- \`${shortHash}\` ${title}\n`;
}

/**
 * The index section of a memory block: its heading, then the lines under their categories' titles
 * (anti-patterns, heuristics, patterns; each in the given order), then a blank line; "" for none.
 * Its length is the heading's, the lines', a title per category used, and 1.
 *
 * @example
 * formatMemoryIndex([{ category: "patterns", line: formatIndexLine(entry, "184d7223") }], "mcp");
 */
export function formatMemoryIndex(lines: ReadonlyArray<{ category: Category; line: string }>, fetch: MemoryFetch): string {
  if (lines.length === 0) return "";
  let text = MEMORY_INDEX_HEADINGS[fetch];
  for (const category of CATEGORY_PRIORITY) {
    const inCategory = lines.filter((item) => item.category === category);
    if (inCategory.length === 0) continue;
    text += INDEX_CATEGORY_TITLES[category] + inCategory.map((item) => item.line).join("");
  }
  return `${text}\n`;
}
