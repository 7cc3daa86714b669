import { capLessonDescription, readReviewFindings, type Lesson } from "@iflow-memory/parser";
import {
  checkLessonEffectiveness,
  decayLessons,
  extractLessons,
  formatKnownIssues,
  lessonTags,
  selectLessons,
  summarizeEffectiveness,
  type EffectivenessCheck,
  type EffectivenessSummary,
  type InjectionAudit,
} from "@iflow-memory/ranker";
import { readLessons, updateLessons } from "./lessons-store.js";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { isoTimestamp } from "./iso-timestamp.js";

const now = (clock?: () => Date) => isoTimestamp((clock ?? (() => new Date()))());

/**
 * `lessons add`: a manual lesson (default type `preference`: injected at once).
 *
 * @example
 * await addLesson(".archeflow/memory", { description: "User prefers one bundled PR" }); // { id: "m-005", … }
 */
export async function addLesson(
  directory: string,
  fields: { description: string; type?: string; domain?: string; tags?: string[]; severity?: string },
  clock?: () => Date,
): Promise<Lesson> {
  const description = capLessonDescription(fields.description);
  return updateLessons(directory, ({ lessons }, newId) => {
    const lesson: Lesson = {
      id: newId(),
      ts: now(clock),
      run_id: "manual",
      type: fields.type ?? "preference",
      source: "user_feedback",
      description,
      frequency: 1,
      severity: fields.severity ?? "info",
      domain: fields.domain ?? "general",
      tags: fields.tags ?? lessonTags(description),
      archetype: null,
      last_seen_run: "",
      runs_since_last_seen: 0,
      extra: {},
    };
    return { change: { lessons: [...lessons, lesson] }, result: lesson };
  });
}

/**
 * `lessons forget`: moves a lesson to archive.jsonl, whatever its frequency.
 *
 * @example
 * await forgetLesson(".archeflow/memory", "m-002");
 */
export async function forgetLesson(directory: string, id: string): Promise<Lesson> {
  return updateLessons(directory, ({ lessons }) => {
    const lesson = lessons.find((candidate) => candidate.id === id);
    if (lesson === undefined) {
      throw new StoreError("LESSON_NOT_FOUND", `cannot forget ${id}: no lesson with that id in ${directory}/lessons.jsonl; see iflow-memory lessons list`);
    }
    return { change: { lessons: lessons.filter((candidate) => candidate !== lesson), archive: [lesson] }, result: lesson };
  });
}

export interface ExtractReport {
  runId: string;
  added: Lesson[];
  confirmed: Lesson[];
  skipped: number;
  alreadyExtracted: boolean;
  warnings: Array<{ path: string; line: number; message: string }>;
}

/**
 * `lessons extract`: learns from one run's event stream. A run already extracted changes nothing.
 *
 * @example
 * await extractLessonsFromEvents(".archeflow/memory", ".archeflow/events/r7.jsonl"); // { runId: "r7", added: […], … }
 */
export async function extractLessonsFromEvents(directory: string, eventsPath: string, options: { runId?: string; clock?: () => Date } = {}): Promise<ExtractReport> {
  const events = await readEvents(eventsPath);
  const runId = options.runId ?? events.runId;
  if (runId === null || runId === "") {
    throw new StoreError("NO_RUN_ID", `cannot extract lessons from ${eventsPath}: no event has a run_id; pass --run-id`);
  }
  return updateLessons<ExtractReport>(directory, ({ lessons, state }, newId) => {
    if (state.extractedRuns.includes(runId)) {
      return { change: {}, result: { runId, added: [], confirmed: [], skipped: 0, alreadyExtracted: true, warnings: events.warnings } };
    }
    const extracted = extractLessons(lessons, events.findings, { runId, now: now(options.clock), newId });
    const byId = (ids: string[]) => extracted.lessons.filter((lesson) => ids.includes(lesson.id));
    return {
      change: { lessons: extracted.lessons, state: { ...state, extractedRuns: [...state.extractedRuns, runId] } },
      result: { runId, added: byId(extracted.added), confirmed: byId(extracted.updated), skipped: extracted.skipped, alreadyExtracted: false, warnings: events.warnings },
    };
  });
}

/**
 * `lessons decay`: ages the lessons not seen in `runId` (default: the run extracted last).
 *
 * @example
 * await decayLessonsInDirectory(".archeflow/memory"); // { runId: "r7", aged: 12, archived: [] }
 */
export async function decayLessonsInDirectory(directory: string, options: { runId?: string } = {}): Promise<{ runId: string | null; aged: number; archived: Lesson[] }> {
  return updateLessons(directory, ({ lessons, state }) => {
    const runId = options.runId ?? state.extractedRuns.at(-1) ?? null;
    const { kept, archived } = decayLessons(lessons, runId);
    const aged = lessons.filter((lesson) => runId === null || lesson.last_seen_run !== runId).length;
    return { change: { lessons: kept, archive: archived }, result: { runId, aged, archived } };
  });
}

/**
 * `lessons inject`: the `## Known Issues (from past runs)` section for a domain and archetype
 * ("" when nothing qualifies); with `auditRunId`, records what was injected into that run.
 *
 * @example
 * (await injectLessons(".archeflow/memory", { domain: "code" })).text; // "## Known Issues (from past runs)\n- … [seen 3x, guardian]\n"
 */
export async function injectLessons(
  directory: string,
  options: { domain?: string; archetype?: string; auditRunId?: string; clock?: () => Date } = {},
): Promise<{ text: string; lessons: Lesson[]; warnings: LessonsWarnings }> {
  if (options.auditRunId === undefined) {
    const read = await readLessons(directory);
    const lessons = selectLessons(read.lessons, options);
    return { text: formatKnownIssues(lessons), lessons, warnings: read.warnings };
  }
  const runId = options.auditRunId;
  return updateLessons(directory, (current) => {
    const lessons = selectLessons(current.lessons, options);
    const audit: InjectionAudit = {
      ts: now(options.clock),
      run_id: runId,
      domain: options.domain ?? "",
      archetype: options.archetype ?? "",
      lessons_injected: lessons.map((lesson) => lesson.id),
      lesson_count: lessons.length,
    };
    return { change: { audit: [audit as unknown as Record<string, unknown>] }, result: { text: formatKnownIssues(lessons), lessons, warnings: current.warnings } };
  });
}

type LessonsWarnings = Array<{ path: string; line: number; message: string }>;

/**
 * `lessons audit-check`: for each lesson injected into a run (per audit.jsonl), whether its issue
 * came back in the run's findings. Checks already recorded for the run are not recorded again.
 *
 * @example
 * await auditCheck(".archeflow/memory", "r8", ".archeflow/events/r8.jsonl"); // { checks: […], alreadyChecked: [] }
 */
export async function auditCheck(
  directory: string,
  runId: string,
  eventsPath: string,
  clock?: () => Date,
): Promise<{ checks: EffectivenessCheck[]; alreadyChecked: string[]; injected: number; warnings: LessonsWarnings }> {
  const events = await readEvents(eventsPath);
  return updateLessons(directory, ({ lessons, archive, audit }) => {
    const injected = [
      ...new Set(audit.filter((record) => record.run_id === runId && Array.isArray(record.lessons_injected)).flatMap((record) => (record.lessons_injected as unknown[]).filter((id): id is string => typeof id === "string"))),
    ];
    const checked = new Set(audit.filter((record) => record.type === "effectiveness_check" && record.run_id === runId).map((record) => record.lesson_id));
    const known = [...lessons, ...archive];
    const toCheck = injected.filter((id) => !checked.has(id)).flatMap((id) => known.filter((lesson) => lesson.id === id).slice(0, 1));
    const checks = checkLessonEffectiveness(toCheck, events.findings, { runId, now: now(clock) });
    return {
      change: { audit: checks as unknown as Array<Record<string, unknown>> },
      result: { checks, alreadyChecked: injected.filter((id) => checked.has(id)), injected: injected.length, warnings: events.warnings },
    };
  });
}

/**
 * `lessons effectiveness`: helpful and ineffective counts per lesson and overall, from audit.jsonl.
 *
 * @example
 * (await readEffectiveness(".archeflow/memory")).ratio; // 0.75
 */
export async function readEffectiveness(directory: string): Promise<EffectivenessSummary> {
  const { audit } = await readLessons(directory);
  const checks = audit.filter(
    (record): record is Record<string, unknown> & EffectivenessCheck =>
      record.type === "effectiveness_check" && typeof record.lesson_id === "string" && (record.effectiveness === "helpful" || record.effectiveness === "ineffective"),
  );
  return summarizeEffectiveness(checks.map((check) => ({ ...check, lesson_desc: typeof check.lesson_desc === "string" ? check.lesson_desc : "" })));
}

async function readEvents(path: string) {
  const file = await readTextFile(path);
  if ("missing" in file) throw new StoreError("STORE_UNREADABLE", `cannot read events ${path}: no such file; pass the run's events JSONL (ArcheFlow writes .archeflow/events/RUN_ID.jsonl)`);
  if ("warning" in file) throw new StoreError("STORE_UNREADABLE", `cannot read events ${path}: ${file.warning.message}`);
  return readReviewFindings(file.text, path);
}
