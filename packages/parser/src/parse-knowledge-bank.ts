import { hashContents } from "./content-hash.js";
import type { Category, Confidence, Entry, Scope } from "./entry.js";
import { stripPythonWhitespace } from "./python-whitespace.js";
import { scanMarkdownLines, type ScanResult } from "./scan-markdown-lines.js";

export interface ParseOptions {
  category: Category;
  scope: Scope;
  /** Where the text came from; copied into each entry's `origin` and each warning. */
  path: string;
  /**
   * Content hashes worked out before, by description (`hashContent` of it: an earlier read of the
   * same file), taken instead of hashing that description again.
   */
  knownHashes?: ReadonlyMap<string, string>;
  /**
   * Parse only from this point of the text on (`resumePoint` of an earlier version of it, of
   * which this text is the earlier one with more appended): the entries from there, numbered and
   * placed as in the whole text, and the warnings of what follows it.
   */
  from?: ParseResume;
}

/**
 * Where a parse may start again in a file that grew: the start of its last entry's header line
 * (`offset` in the text as parsed: a BOM dropped, line ends made `\n`), that line's number and the
 * entry's position. What comes before it parses the same whatever is appended: no entry before
 * the last runs past it, no code fence is open there, and every `<!--` before it has a `-->`
 * after it (whether one without is a comment depends on a `-->` that appended text may bring).
 */
export interface ParseResume {
  offset: number;
  line: number;
  filePosition: number;
}

/** A problem found in a user-written file; parsing goes on past it. */
export interface ParseWarning {
  path: string;
  line: number;
  message: string;
}

export interface ParseResult {
  entries: Entry[];
  warnings: ParseWarning[];
}

const NAME_PREFIX = /^(?:anti-pattern|pattern|heuristic):\s*/i;

/**
 * Parses one knowledge-bank or global-store markdown file into entries. Never throws on any
 * text: problems are collected as warnings.
 *
 * @example
 * const { entries } = parseKnowledgeBank(
 *   "### Pattern: Thin Orchestrator\nKeep SKILL.md thin.\n- Used in: Feature #018\n",
 *   { category: "patterns", scope: "local", path: "patterns.md" },
 * );
 * entries[0].name;         // "Thin Orchestrator"
 * entries[0].metadataText; // "- Used in: Feature #018"
 */
export function parseKnowledgeBank(text: string, options: ParseOptions): ParseResult {
  const { from } = options;
  const normalised = normaliseText(text);
  const scan = from === undefined ? scanMarkdownLines(normalised) : scanMarkdownLines(normalised.slice(from.offset), from.line);
  const firstPosition = from === undefined ? 1 : from.filePosition;
  const warnings: ParseWarning[] = scan.warnings.map((warning) => ({ path: options.path, ...warning }));
  const { texts, fenced } = scan;

  // Entries as line ranges: a "### " line opens one; "# " and "## " headings close it and belong to none.
  const entries: Entry[] = [];
  const keys: SeenKey[] = [];
  let header = -1;
  for (let index = 0; index <= texts.length; index++) {
    const text = index < texts.length ? texts[index]! : "# ";
    if (fenced[index] === true || text.charCodeAt(0) !== 0x23 /* # */) continue;
    const opens = text.startsWith("### ");
    if (!opens && !text.startsWith("# ") && !text.startsWith("## ")) continue;
    if (header >= 0) entries.push(toEntry(scan, header, index, firstPosition + entries.length, options, keys));
    header = opens ? index : -1;
  }
  // Hashed together, once it is known how many need it (`hashContents`): a file read whole with
  // node's crypto, the few entries an edit added without loading it.
  const unhashed = entries.filter((entry) => entry.contentHash === "");
  hashContents(unhashed.map((entry) => entry.description)).forEach((hash, at) => (unhashed[at]!.contentHash = hash));
  return { entries, warnings };
}

/**
 * Where a parse of `text` that gave `entries` may start again once text is appended to it
 * (`ParseOptions.from`); null when it cannot: no entry, or a `<!--` before the last one that no
 * `-->` after it closes (text appended later may bring one, and make it a comment). With
 * `after` (the resume point of an earlier version that `text` grew from), the last entry's line
 * is searched for from there.
 *
 * @example
 * const resume = resumePoint(text, parsed.entries);
 * parseKnowledgeBank(text + appended, { ...options, from: resume! }).entries; // the last entry of text and those after it
 */
export function resumePoint(text: string, entries: readonly Entry[], after?: ParseResume): ParseResume | null {
  const last = entries.at(-1);
  if (last === undefined) return null;
  const normalised = normaliseText(text);
  let offset = after?.offset ?? 0;
  for (let line = after?.line ?? 1; line < last.origin.line; line++) {
    const newline = normalised.indexOf("\n", offset);
    if (newline < 0) return null;
    offset = newline + 1;
  }
  const comment = offset === 0 ? -1 : normalised.lastIndexOf("<!--", offset - 1);
  if (comment >= 0 && normalised.lastIndexOf("-->") < comment + 4) return null;
  return { offset, line: last.origin.line, filePosition: last.filePosition };
}

// The text as the parser reads it: a BOM dropped, every line ending a "\n".
function normaliseText(text: string): string {
  const unixNewlines = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  return unixNewlines.charCodeAt(0) === 0xfeff ? unixNewlines.slice(1) : unixNewlines;
}

/** The entry whose header is line `header` and whose body runs to line `end` (exclusive). */
function toEntry(scan: ScanResult, header: number, end: number, filePosition: number, options: ParseOptions, keys: SeenKey[]): Entry {
  const { texts, fenced } = scan;
  let metadataStart = header + 1;
  while (metadataStart < end && (fenced[metadataStart] === true || !texts[metadataStart]!.startsWith("- "))) metadataStart++;
  const description = stripPythonWhitespace(joinLines(texts, header + 1, metadataStart));
  const metadataText = stripPythonWhitespace(joinLines(texts, metadataStart, end));

  // "- Key: value" lines, first key wins; the known keys are matched case-insensitively.
  const metadata: Record<string, string> = {};
  const known: Partial<Record<KnownKey, string>> = {};
  for (let index = metadataStart; index < end; index++) {
    const text = texts[index]!;
    if (fenced[index] === true || !text.startsWith("- ")) continue;
    const seen = readKey(text, keys);
    if (seen === null || Object.hasOwn(metadata, seen.key)) continue;
    const value = text.slice(seen.colon + 1).trim();
    metadata[seen.key] = value;
    if (seen.known !== undefined && known[seen.known] === undefined) known[seen.known] = value;
  }

  return {
    name: stripPythonWhitespace(texts[header]!.slice(4)).replace(NAME_PREFIX, ""),
    headerLine: texts[header]!,
    category: options.category,
    description,
    metadataText,
    metadata,
    observationCount: parseObservationCount(known["observation count"]),
    confidence: parseConfidence(known["confidence"]),
    lastObserved: known["last observed"] ?? null,
    tags: parseTags(known["tags"]),
    filePosition,
    // Worked out by parseKnowledgeBank for every entry left without one.
    contentHash: options.knownHashes?.get(description) ?? "",
    scope: options.scope,
    origin: { path: options.path, line: scan.lineNumbers[header]! },
  };
}

/** A metadata key met before in this file, with the known key it is (case-insensitively), if any. */
interface SeenKey {
  key: string;
  known: KnownKey | undefined;
  /** Where the colon is in the line it was read from (the same in every line that finds it again). */
  colon: number;
}

/**
 * The key of a "- Key: value" line — the text between "- " and the first colon, trimmed — or
 * null when there is none. A file repeats a handful of keys thousands of times; finding the key
 * among those already met avoids cutting, trimming and looking up a new string for every line.
 */
function readKey(text: string, keys: SeenKey[]): SeenKey | null {
  for (const seen of keys) {
    if (text.charCodeAt(2 + seen.key.length) === 0x3a /* : */ && text.startsWith(seen.key, 2)) return seen;
  }
  const colon = text.indexOf(":");
  if (colon < 0) return null;
  const key = text.slice(2, colon).trim();
  if (key === "") return null;
  const seen = { key, known: KNOWN_KEY_LENGTHS.has(key.length) ? KNOWN_KEYS.get(key.toLowerCase()) : undefined, colon };
  // Only keys written exactly "- Key:" can be found again by position; keep the list short.
  if (colon === 2 + key.length && keys.length < 32) keys.push(seen);
  return seen;
}

type KnownKey = "observation count" | "confidence" | "last observed" | "tags";
const KNOWN_KEYS: ReadonlyMap<string, KnownKey> = new Map(
  (["observation count", "confidence", "last observed", "tags"] as const).map((key) => [key, key]),
);
const KNOWN_KEY_LENGTHS: ReadonlySet<number> = new Set([...KNOWN_KEYS.keys()].map((key) => key.length));

function joinLines(texts: readonly string[], start: number, end: number): string {
  if (end - start === 1) return texts[start]!;
  return start >= end ? "" : texts.slice(start, end).join("\n");
}

function parseObservationCount(value: string | undefined): number {
  const match = value === undefined ? null : /^(\d+)(?:$|\s|[,;(])/.exec(value);
  if (match === null) return 1;
  const count = Number(match[1]);
  return Number.isSafeInteger(count) ? count : 1;
}

function parseConfidence(value: string | undefined): Confidence {
  const word = value?.toLowerCase().match(/^[a-z]+/)?.[0];
  return word === "high" || word === "low" || word === "medium" ? word : "medium";
}

function parseTags(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}
