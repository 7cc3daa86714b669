import { appendFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { lessonId, parseLessonLines, serializeLesson, type Lesson, type LessonLine, type LessonWarning } from "@iflow-memory/parser";
import { commitFiles, type PendingAppend } from "./commit-files.js";
import { isJsonObject } from "./parse-settings-object.js";
import { readCommittedFiles } from "./read-committed-files.js";
import { readTextFile, readTextFileSync } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { withStoreLock } from "./with-store-lock.js";

/** Where ArcheFlow keeps its memory, relative to the project. */
export const DEFAULT_LESSONS_DIR = ".archeflow/memory";

/** Our own bookkeeping beside ArcheFlow's files (ArcheFlow ignores it). */
export const LESSONS_STATE_FILE = ".iflow-memory-lessons.json";

export interface LessonsState {
  /** The highest id number ever given, so that ids are never reused, even after an archive is cleared. */
  /** A number, or a string of digits when past 2^53. */
  highestId: number | string;
  /** Runs already extracted, oldest first; extracting one again changes nothing. */
  extractedRuns: string[];
}

export interface LessonsRead {
  directory: string;
  lessons: Lesson[];
  archive: Lesson[];
  /** `audit.jsonl` records that parse as JSON objects. */
  audit: Array<Record<string, unknown>>;
  state: LessonsState;
  warnings: LessonWarning[];
}

/** What a change to a lessons directory writes: all of it at once, or nothing. */
export interface LessonsChange {
  /** The lessons after the change, in file order; a lesson left out is removed from lessons.jsonl. */
  lessons?: Lesson[];
  /** Lessons to append to archive.jsonl. */
  archive?: Lesson[];
  /** Records to append to audit.jsonl, one line each. */
  audit?: Array<Record<string, unknown>>;
  state?: LessonsState;
}

/**
 * Reads a lessons directory (`lessons.jsonl`, `archive.jsonl`, `audit.jsonl`, our state file).
 * Missing files are empty; malformed lines are warnings (and stay on disk).
 *
 * @example
 * const { lessons, warnings } = await readLessons(".archeflow/memory");
 */
export async function readLessons(directory: string): Promise<LessonsRead> {
  // lessons.jsonl and archive.jsonl change together (forget, decay): read as one commit left them.
  const [lessons, archive] = (await readCommittedFiles(directory, [join(directory, "lessons.jsonl"), join(directory, "archive.jsonl")], (path, target, appended) => readLessonFile(path, { as: target, appended }))) as [LessonFileRead, LessonFileRead];
  const audit = await readAudit(join(directory, "audit.jsonl"));
  return {
    directory,
    lessons: valid(lessons.lines),
    archive: valid(archive.lines),
    audit: audit.records,
    state: readState(directory),
    warnings: [...lessons.warnings, ...archive.warnings, ...audit.warnings],
  };
}

/**
 * Changes a lessons directory under its lock: reads it, lets `change` decide (it may call
 * `newId()` for fresh `m-NNN` ids, unique across lessons, archive and every earlier id), and
 * writes lessons.jsonl, archive.jsonl and the state all-or-nothing; audit records are appended
 * as whole lines. Lines of lessons.jsonl that are not valid lessons, and lessons the change
 * leaves as they were, are written back byte for byte.
 *
 * @example
 * await updateLessons(dir, ({ lessons }, newId) => ({ lessons: [...lessons, { ...draft, id: newId() }] }));
 */
export async function updateLessons<T>(
  directory: string,
  change: (current: LessonsRead, newId: () => string) => { change: LessonsChange; result: T },
): Promise<T> {
  const absolute = resolve(directory);
  return withStoreLock(absolute, async () => {
    const lessonsPath = join(absolute, "lessons.jsonl");
    const archivePath = join(absolute, "archive.jsonl");
    // A file that is there but cannot be read would be rewritten as if it were empty: refused.
    const lessonsFile = await readLessonFile(lessonsPath, { forUpdate: true });
    const archiveFile = await readLessonFile(archivePath, { forUpdate: true });
    const audit = await readAudit(join(absolute, "audit.jsonl"));
    const state = readState(absolute);
    const current: LessonsRead = {
      directory: absolute,
      lessons: valid(lessonsFile.lines),
      archive: valid(archiveFile.lines),
      audit: audit.records,
      state,
      warnings: [...lessonsFile.warnings, ...archiveFile.warnings, ...audit.warnings],
    };
    // In bigints: an id past 2^53 (m-999999999999999999999) is still followed by the next one,
    // in full digits. A loop, not a spread: a file may hold more lessons than a call has arguments.
    let highest = BigInt(state.highestId);
    for (const lesson of [current.lessons, current.archive].flat()) {
      const number = idNumber(lesson.id);
      if (number !== null && number > highest) highest = number;
    }
    const newId = () => lessonId(++highest);
    const { change: planned, result } = change(current, newId);

    const writes = [];
    if (planned.lessons !== undefined) writes.push({ path: lessonsPath, content: rewriteLessons(lessonsFile.lines, planned.lessons) });
    if (planned.archive !== undefined && planned.archive.length > 0) {
      writes.push({ path: archivePath, content: appendLessons(archiveFile.text, planned.archive, lessonsFile.lines) });
    }
    const plannedHighest = BigInt(planned.state?.highestId ?? 0);
    const nextHighest = plannedHighest > highest ? plannedHighest : highest;
    const nextState = { ...(planned.state ?? state), highestId: nextHighest <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(nextHighest) : nextHighest.toString() };
    if (writes.length > 0 || JSON.stringify(nextState) !== JSON.stringify(state)) {
      writes.push({ path: join(absolute, LESSONS_STATE_FILE), content: `${JSON.stringify(nextState, null, 2)}\n` });
    }
    await commitFiles(absolute, writes);
    if (planned.audit !== undefined && planned.audit.length > 0) {
      // One write of whole lines, under the lock: readers never see half a record.
      appendFileSync(join(absolute, "audit.jsonl"), planned.audit.map((record) => `${JSON.stringify(record)}\n`).join(""), { mode: 0o600 });
    }
    return result;
  });
}

interface LessonFileRead {
  lines: LessonLine[];
  text: string;
  warnings: LessonWarning[];
}

// `as`: the file the warnings name, when `path` is a commit's temporary standing in for it.
async function readLessonFile(readPath: string, options: { forUpdate?: boolean; as?: string; appended?: PendingAppend | undefined } = {}): Promise<LessonFileRead> {
  const path = options.as ?? readPath;
  // For an update the lines are written back: bytes that are not UTF-8 stay as they were.
  const file = await readTextFile(readPath, { lossless: options.forUpdate === true, appended: options.appended });
  if ("missing" in file) return { lines: [], text: "", warnings: [] };
  if ("warning" in file) {
    if (options.forUpdate === true) throw new StoreError("STORE_UNREADABLE", `cannot change ${path}: ${file.warning.message.replace(/; skipped$/, "")}; nothing was changed — fix or move the file, then run the command again`);
    return { lines: [], text: "", warnings: [{ path, line: 0, message: file.warning.message }] };
  }
  return { ...parseLessonLines(file.text, path), text: file.text };
}

async function readAudit(path: string): Promise<{ records: Array<Record<string, unknown>>; warnings: LessonWarning[] }> {
  const file = await readTextFile(path);
  if (!("text" in file)) return { records: [], warnings: "warning" in file ? [{ path, line: 0, message: file.warning.message }] : [] };
  const records: Array<Record<string, unknown>> = [];
  const warnings: LessonWarning[] = [];
  file.text.split("\n").forEach((raw, index) => {
    if (raw.trim() === "") return;
    try {
      const value: unknown = JSON.parse(raw);
      if (isJsonObject(value)) records.push(value);
      else warnings.push({ path, line: index + 1, message: "not a JSON object; skipped" });
    } catch {
      warnings.push({ path, line: index + 1, message: "not valid JSON; skipped" });
    }
  });
  return { records, warnings };
}

function readState(directory: string): LessonsState {
  const file = readTextFileSync(join(directory, LESSONS_STATE_FILE));
  if (!("text" in file)) return { highestId: 0, extractedRuns: [] };
  try {
    const state = JSON.parse(file.text) as Partial<LessonsState>;
    return {
      highestId: Number.isSafeInteger(state.highestId) || (typeof state.highestId === "string" && /^\d{1,400}$/.test(state.highestId)) ? (state.highestId as number | string) : 0,
      extractedRuns: Array.isArray(state.extractedRuns) ? state.extractedRuns.filter((run): run is string => typeof run === "string") : [],
    };
  } catch {
    return { highestId: 0, extractedRuns: [] };
  }
}

function idNumber(id: string): bigint | null {
  const match = /^m-(\d{1,400})$/.exec(id);
  return match === null ? null : BigInt(match[1]!);
}

function valid(lines: readonly LessonLine[]): Lesson[] {
  return lines.flatMap((line) => (line.kind === "lesson" ? [line.lesson] : []));
}

// The new lessons take the places of the old ones with the same id, in order (ArcheFlow's own
// script could write an id twice); an old lesson with no counterpart is gone (archived or
// forgotten); lessons that did not exist are appended. Invalid lines stay where they were.
function rewriteLessons(original: readonly LessonLine[], lessons: readonly Lesson[]): string {
  const queues = new Map<string, Lesson[]>();
  for (const lesson of lessons) queues.set(lesson.id, [...(queues.get(lesson.id) ?? []), lesson]);
  const out: string[] = [];
  for (const line of original) {
    if (line.kind === "invalid") {
      out.push(line.raw);
      continue;
    }
    const next = queues.get(line.lesson.id)?.shift();
    if (next === undefined) continue;
    out.push(serializeLesson(next) === serializeLesson(line.lesson) ? line.raw : serializeLesson(next));
  }
  for (const queue of queues.values()) for (const lesson of queue) out.push(serializeLesson(lesson));
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

// A lesson archived as it was (forget) keeps its line byte for byte.
function appendLessons(text: string, lessons: readonly Lesson[], original: readonly LessonLine[]): string {
  const base = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  const asRead = (lesson: Lesson) => {
    const serialized = serializeLesson(lesson);
    const line = original.find((candidate) => candidate.kind === "lesson" && candidate.lesson.id === lesson.id && serializeLesson(candidate.lesson) === serialized);
    return line === undefined ? serialized : line.raw;
  };
  return base + lessons.map((lesson) => `${asRead(lesson)}\n`).join("");
}
