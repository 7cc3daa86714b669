/** The lesson types of ArcheFlow's memory skill. */
export const LESSON_TYPES = ["pattern", "preference", "archetype_hint", "anti_pattern"] as const;
export type LessonType = (typeof LESSON_TYPES)[number];

/**
 * One cross-run lesson, in ArcheFlow's field names (`lessons.jsonl`, one JSON object a line).
 * Fields this tool does not know are kept in `extra` and written back unchanged.
 *
 * @example
 * const lesson: Lesson = { id: "m-001", ts: "2026-04-03T14:00:00Z", run_id: "r1", type: "pattern",
 *   source: "guardian", description: "Timeline references must match story start day", frequency: 2,
 *   severity: "bug", domain: "writing", tags: ["timeline"], archetype: null, last_seen_run: "r1",
 *   runs_since_last_seen: 0, extra: {} };
 */
export interface Lesson {
  id: string;
  ts: string;
  run_id: string;
  type: string;
  source: string;
  description: string;
  frequency: number;
  severity: string;
  domain: string;
  tags: string[];
  archetype: string | null;
  last_seen_run: string;
  runs_since_last_seen: number;
  extra: Record<string, unknown>;
}

/** A line of a lessons file: a lesson (with its text as read), or a line kept as it is. */
export type LessonLine =
  | { kind: "lesson"; lesson: Lesson; raw: string; line: number }
  | { kind: "invalid"; raw: string; line: number; reason: string };

export interface LessonWarning {
  path: string;
  line: number;
  message: string;
}

const STRING_FIELDS = ["id", "ts", "run_id", "type", "source", "description", "severity", "domain", "last_seen_run"] as const;
const DEFAULTS = { ts: "", run_id: "", type: "pattern", source: "unknown", severity: "info", domain: "general", last_seen_run: "" } as const;
const KNOWN = new Set<string>([...STRING_FIELDS, "frequency", "tags", "archetype", "runs_since_last_seen"]);

/**
 * Reads a lessons JSONL file (`lessons.jsonl` or `archive.jsonl`). A line that is not a JSON
 * object, or whose known fields have the wrong type, is reported and kept as it is (so that
 * writing the file back never drops it); blank lines are kept too. Never throws.
 *
 * @example
 * const { lines, warnings } = parseLessonLines('{"id":"m-001","description":"…","frequency":2}\nnot json\n', "lessons.jsonl");
 * lines[0].kind; // "lesson"
 * warnings;      // [{ path: "lessons.jsonl", line: 2, message: "not valid JSON; skipped and kept as it is" }]
 */
export function parseLessonLines(text: string, path: string): { lines: LessonLine[]; warnings: LessonWarning[] } {
  const lines: LessonLine[] = [];
  const warnings: LessonWarning[] = [];
  const rows = text.split("\n");
  if (rows.at(-1) === "") rows.pop();
  rows.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") {
      lines.push({ kind: "invalid", raw, line, reason: "blank" });
      return;
    }
    const result = toLesson(raw);
    if (typeof result === "string") {
      lines.push({ kind: "invalid", raw, line, reason: result });
      warnings.push({ path, line, message: `${result}; skipped and kept as it is` });
    } else {
      lines.push({ kind: "lesson", lesson: result, raw, line });
    }
  });
  return { lines, warnings };
}

function toLesson(raw: string): Lesson | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return "not valid JSON";
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "not a JSON object";
  const record = value as Record<string, unknown>;
  for (const field of STRING_FIELDS) {
    if (field in record && typeof record[field] !== "string") return `${field} is ${describe(record[field])}, not a string`;
  }
  if (typeof record.id !== "string" || record.id === "") return "has no id";
  if (typeof record.description !== "string" || record.description.trim() === "") return "has no description";
  if (!isCount(record.frequency)) return `frequency is ${describe(record.frequency)}, not a whole number of 0 or more`;
  if ("runs_since_last_seen" in record && !isCount(record.runs_since_last_seen)) {
    return `runs_since_last_seen is ${describe(record.runs_since_last_seen)}, not a whole number of 0 or more`;
  }
  if ("tags" in record && !(Array.isArray(record.tags) && record.tags.every((tag) => typeof tag === "string"))) return `tags is ${describe(record.tags)}, not a list of strings`;
  if ("archetype" in record && record.archetype !== null && typeof record.archetype !== "string") return `archetype is ${describe(record.archetype)}, not a string or null`;

  const extra: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(record)) if (!KNOWN.has(key)) extra[key] = field;
  const text = (field: keyof typeof DEFAULTS) => (typeof record[field] === "string" ? (record[field] as string) : DEFAULTS[field]);
  return {
    id: record.id,
    ts: text("ts"),
    run_id: text("run_id"),
    type: text("type"),
    source: text("source"),
    description: record.description,
    frequency: record.frequency as number,
    severity: text("severity"),
    domain: text("domain"),
    tags: (record.tags as string[] | undefined) ?? [],
    archetype: (record.archetype as string | null | undefined) ?? null,
    last_seen_run: text("last_seen_run"),
    runs_since_last_seen: (record.runs_since_last_seen as number | undefined) ?? 0,
    extra,
  };
}

/**
 * A lesson as one JSON line (no newline), in ArcheFlow's field order, unknown fields last.
 *
 * @example
 * serializeLesson(lesson); // '{"id":"m-001","ts":"…",…,"runs_since_last_seen":0}'
 */
export function serializeLesson(lesson: Lesson): string {
  const { extra, ...known } = lesson;
  return JSON.stringify({ ...known, ...extra });
}

/** The number of an `m-NNN` id, or null for an id of another form. */
export function lessonNumber(id: string): number | null {
  const match = /^m-(\d+)$/.exec(id);
  return match === null ? null : Number(match[1]);
}

/** The id `m-NNN` for a number, zero-padded to three digits (wider when needed; a bigint is written in full digits). */
export function lessonId(number: number | bigint): string {
  return `m-${(typeof number === "bigint" ? number : BigInt(number)).toString().padStart(3, "0")}`;
}

/** Longest description a lesson keeps: a learning, not a log (a 60 MB finding made a 126 MB file). */
export const MAX_LESSON_DESCRIPTION = 4000;

/**
 * A lesson's description cut to `MAX_LESSON_DESCRIPTION` characters (never inside a surrogate
 * pair), with what was cut said at its end; a shorter one as it is.
 *
 * @example
 * capLessonDescription("x".repeat(4010)); // "xxx…x [… 10 more characters cut]"
 */
export function capLessonDescription(description: string): string {
  if (description.length <= MAX_LESSON_DESCRIPTION) return description;
  const high = description.charCodeAt(MAX_LESSON_DESCRIPTION - 1);
  const end = high >= 0xd800 && high <= 0xdbff ? MAX_LESSON_DESCRIPTION - 1 : MAX_LESSON_DESCRIPTION;
  return `${description.slice(0, end)} [… ${description.length - end} more characters cut]`;
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function describe(value: unknown): string {
  return value === undefined ? "missing" : JSON.stringify(value);
}
