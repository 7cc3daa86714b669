import { hashContent } from "./content-hash.js";
import type { Category, Confidence, Entry, Scope } from "./entry.js";
import { stripPythonWhitespace } from "./python-whitespace.js";
import { scanMarkdownLines, type ScannedLine } from "./scan-markdown-lines.js";

export interface ParseOptions {
  category: Category;
  scope: Scope;
  /** Where the text came from; copied into each entry's `origin` and each warning. */
  path: string;
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
  const unixNewlines = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  const normalised = unixNewlines.charCodeAt(0) === 0xfeff ? unixNewlines.slice(1) : unixNewlines;
  const scan = scanMarkdownLines(normalised);
  const warnings: ParseWarning[] = scan.warnings.map((warning) => ({ path: options.path, ...warning }));

  const blocks: { header: ScannedLine; body: ScannedLine[] }[] = [];
  let current: { header: ScannedLine; body: ScannedLine[] } | null = null;
  for (const line of scan.lines) {
    if (!line.fenced && line.text.startsWith("### ")) {
      current = { header: line, body: [] };
      blocks.push(current);
    } else if (!line.fenced && (line.text.startsWith("# ") || line.text.startsWith("## "))) {
      current = null; // a section heading ends the entry and is never part of one
    } else if (current !== null) {
      current.body.push(line);
    }
  }

  const entries = blocks.map((block, index) => toEntry(block.header, block.body, index + 1, options));
  return { entries, warnings };
}

function toEntry(header: ScannedLine, body: ScannedLine[], filePosition: number, options: ParseOptions): Entry {
  const metadataStart = body.findIndex((line) => !line.fenced && line.text.startsWith("- "));
  const descriptionLines = metadataStart < 0 ? body : body.slice(0, metadataStart);
  const metadataLines = metadataStart < 0 ? [] : body.slice(metadataStart);
  const description = stripPythonWhitespace(descriptionLines.map((line) => line.text).join("\n"));
  const metadataText = stripPythonWhitespace(metadataLines.map((line) => line.text).join("\n"));
  const metadata = readMetadata(metadataLines);
  const known = knownFields(metadata);
  let contentHash: string | undefined;

  return {
    name: stripPythonWhitespace(header.text.slice(4)).replace(NAME_PREFIX, ""),
    headerLine: header.text,
    category: options.category,
    description,
    metadataText,
    metadata,
    observationCount: parseObservationCount(known["observation count"]),
    confidence: parseConfidence(known["confidence"]),
    lastObserved: known["last observed"] ?? null,
    tags: parseTags(known["tags"]),
    filePosition,
    // Computed on first read: injection compares normalised content and never needs it.
    get contentHash(): string {
      return (contentHash ??= hashContent(description));
    },
    set contentHash(value: string) {
      contentHash = value;
    },
    scope: options.scope,
    origin: { path: options.path, line: header.line },
  };
}

function readMetadata(lines: ScannedLine[]): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const line of lines) {
    if (line.fenced || !line.text.startsWith("- ")) continue;
    const colon = line.text.indexOf(":");
    if (colon < 0) continue;
    const key = line.text.slice(2, colon).trim();
    if (key === "" || Object.hasOwn(metadata, key)) continue;
    metadata[key] = line.text.slice(colon + 1).trim();
  }
  return metadata;
}

/** Known keys are matched case-insensitively; the first one written wins. */
function knownFields(metadata: Record<string, string>): Record<string, string | undefined> {
  const fields: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const lower = key.toLowerCase();
    if (fields[lower] === undefined) fields[lower] = value;
  }
  return fields;
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
