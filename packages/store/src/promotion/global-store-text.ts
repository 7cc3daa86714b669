import { toMetadataValue, type Category, type Confidence } from "@iflow-memory/parser";

const TITLES: Record<Category, string> = { "anti-patterns": "Anti-Patterns", heuristics: "Heuristics", patterns: "Patterns" };
const PREFIXES: Record<Category, string> = { "anti-patterns": "Anti-Pattern", heuristics: "Heuristic", patterns: "Pattern" };

/**
 * The header of a global-store file (DESIGN §3.3).
 *
 * @example
 * globalStoreHeader("heuristics"); // "# Global Heuristics\n\nCross-project learnings promoted …\n"
 */
export function globalStoreHeader(category: Category): string {
  return `# Global ${TITLES[category]}\n\nCross-project learnings promoted from retrospectives. Automatically managed by iflow.\nDo not edit manually — entries are updated during /finish.\n`;
}

export interface GlobalEntryFields {
  category: Category;
  name: string;
  description: string;
  contentHash: string;
  sources: string[];
  observationCount: number;
  lastObserved: string;
  tags: string;
  confidence: Confidence;
}

/**
 * A new global-store entry in the §3.3 format, ending with a newline.
 *
 * @example
 * formatGlobalEntry({ category: "patterns", name: "Atomic Writes", description: "Write, fsync, rename.", contentHash: "61c6…",
 *   sources: ["infra-tools, Feature #061"], observationCount: 1, lastObserved: "2026-10-10T15:00:00Z", tags: "universal", confidence: "medium" });
 */
export function formatGlobalEntry(fields: GlobalEntryFields): string {
  return [
    `### ${PREFIXES[fields.category]}: ${toMetadataValue(fields.name)}`,
    fields.description,
    `- Content-Hash: sha256:${toMetadataValue(fields.contentHash)}`,
    `- Source: ${fields.sources.map(toMetadataValue).join("; ")}`,
    `- Observation count: ${fields.observationCount}`,
    `- Last observed: ${toMetadataValue(fields.lastObserved)}`,
    `- Tags: ${toMetadataValue(fields.tags)}`,
    `- Confidence: ${toMetadataValue(fields.confidence)}`,
    "",
  ].join("\n");
}

/**
 * A global-store file with one more entry at its end (the §3.3 header first when the file is new);
 * several entries formatted by `formatGlobalEntry` and joined with "\n" are appended as they would
 * be one by one.
 *
 * @example
 * appendGlobalEntry("", "patterns", formatGlobalEntry(fields)); // "# Global Patterns\n\n…\n\n### Pattern: …"
 */
export function appendGlobalEntry(text: string, category: Category, entry: string): string {
  const base = text.trim() === "" ? globalStoreHeader(category) : text.endsWith("\n") ? text : `${text}\n`;
  return `${base}\n${entry}`;
}

/**
 * The file with the entry whose header is on `headerLine` (1-based) observed once more: its
 * observation count set, `Last observed` set and a provenance added to `Source` (each line
 * added after the entry's metadata if it had none). Every other byte stays as it was.
 *
 * @example
 * recordObservation(text, 12, { observationCount: 3, lastObserved: "2026-11-22T10:00:00Z", source: "webshop, Feature #042" });
 */
export function recordObservation(text: string, headerLine: number, update: { observationCount: number; lastObserved: string; source: string }): string {
  const lines = text.split("\n");
  const start = headerLine - 1;
  let end = start + 1;
  while (end < lines.length && !/^#{1,3} /.test(lines[end]!)) end++;
  const entry = lines.slice(start, end);
  let tail = entry.length;
  while (tail > 1 && entry[tail - 1]!.trim() === "") tail--;

  const set = (key: string, value: (old: string | null) => string) => {
    const index = entry.findIndex((line) => new RegExp(`^- ${key}:`, "i").test(line));
    if (index >= 0) {
      entry[index] = `${entry[index]!.slice(0, key.length + 3)} ${value(entry[index]!.slice(key.length + 3).trim())}`;
    } else {
      entry.splice(tail, 0, `- ${key}: ${value(null)}`);
      tail++;
    }
  };
  const source = toMetadataValue(update.source);
  set("Source", (old) => (old === null || old === "" ? source : `${old}; ${source}`));
  set("Observation count", () => String(update.observationCount));
  set("Last observed", () => toMetadataValue(update.lastObserved));
  return [...lines.slice(0, start), ...entry, ...lines.slice(end)].join("\n");
}

// In a provenance, "," separates the project from its feature and ";" one provenance from the
// next: in a name they are percent-encoded (and "%" with them, so that the encoding is one-to-one).
const PROVENANCE_ESCAPES: Record<string, string> = { "%": "%25", ";": "%3B", ",": "%2C" };
const escapeProvenanceName = (name: string) => toMetadataValue(name).replace(/[%;,]/g, (character) => PROVENANCE_ESCAPES[character]!);

/**
 * The provenance a promotion records in `Source`: the project, and the feature when there is
 * one. Each name is one line (see `toMetadataValue`) and holds no `;` or `,` of its own, so a
 * `Source` value always splits back into the provenances written — a project is never counted
 * twice because its name looks like two.
 *
 * @example
 * provenanceOf("webshop", "042"); // "webshop, Feature #042"
 * provenanceOf("a; b", undefined); // "a%3B b"
 */
export function provenanceOf(project: string, feature: string | undefined): string {
  return feature === undefined ? escapeProvenanceName(project) : `${escapeProvenanceName(project)}, Feature #${escapeProvenanceName(feature)}`;
}

/**
 * The file with a metadata line set on the entry whose header is on `headerLine` (replaced if
 * the key is there, else added after the entry's last line; removed when the value is empty and
 * `removeWhenEmpty`). Every other byte stays.
 *
 * @example
 * recordMetadata(text, 12, "Contested with", "Other Entry (sha256:491b5e15f50c1c0d)");
 */
export function recordMetadata(text: string, headerLine: number, key: string, value: string, options: { removeWhenEmpty?: boolean } = {}): string {
  const lines = text.split("\n");
  const start = headerLine - 1;
  let end = start + 1;
  while (end < lines.length && !/^#{1,3} /.test(lines[end]!)) end++;
  const entry = lines.slice(start, end);
  const index = entry.findIndex((line) => line.toLowerCase().startsWith(`- ${key.toLowerCase()}:`));
  value = toMetadataValue(value);
  if (index >= 0 && value === "" && options.removeWhenEmpty === true) {
    entry.splice(index, 1);
  } else if (index >= 0) {
    entry[index] = `- ${key}: ${value}`;
  } else if (value === "" && options.removeWhenEmpty === true) {
    return text;
  } else {
    let tail = entry.length;
    while (tail > 1 && entry[tail - 1]!.trim() === "") tail--;
    entry.splice(tail, 0, `- ${key}: ${value}`);
  }
  return [...lines.slice(0, start), ...entry, ...lines.slice(end)].join("\n");
}
