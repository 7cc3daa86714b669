import type { Lesson, ReviewFinding } from "@iflow-memory/parser";
import { keywordOverlap, lessonKeywords } from "./lesson-keywords.js";

/** Keyword overlap (percent of the lesson's keywords) from which a lesson counts as ineffective. */
export const INEFFECTIVE_THRESHOLD = 30;

/** An `audit.jsonl` line: what a run was given. */
export interface InjectionAudit {
  ts: string;
  run_id: string;
  domain: string;
  archetype: string;
  lessons_injected: string[];
  lesson_count: number;
}

/** An `audit.jsonl` line: whether an injected lesson's issue came back in the run. */
export interface EffectivenessCheck {
  ts: string;
  run_id: string;
  type: "effectiveness_check";
  lesson_id: string;
  lesson_desc: string;
  effectiveness: "helpful" | "ineffective";
  keyword_overlap_pct: number;
}

/**
 * For each lesson injected into a run: the share of its keywords found among the keywords of
 * all that run's findings; 30% or more means the issue came back (`ineffective`), less that
 * the lesson likely prevented it (`helpful`).
 *
 * @example
 * checkLessonEffectiveness([lesson], findings, { runId: "r8", now: "2026-11-22T10:00:00Z" });
 * // [{ ts: "…", run_id: "r8", type: "effectiveness_check", lesson_id: "m-001", lesson_desc: "…", effectiveness: "helpful", keyword_overlap_pct: 0 }]
 */
export function checkLessonEffectiveness(
  lessons: readonly Lesson[],
  findings: readonly ReviewFinding[],
  options: { runId: string; now: string },
): EffectivenessCheck[] {
  const found = [...new Set(findings.flatMap((finding) => lessonKeywords(finding.description)))];
  return lessons.map((lesson) => {
    const overlap = keywordOverlap(lessonKeywords(lesson.description), found);
    return {
      ts: options.now,
      run_id: options.runId,
      type: "effectiveness_check",
      lesson_id: lesson.id,
      lesson_desc: lesson.description,
      effectiveness: overlap >= INEFFECTIVE_THRESHOLD ? "ineffective" : "helpful",
      keyword_overlap_pct: overlap,
    };
  });
}

export interface EffectivenessSummary {
  lessons: Array<{ lesson_id: string; lesson_desc: string; helpful: number; ineffective: number; ratio: number | null }>;
  helpful: number;
  ineffective: number;
  /** helpful / (helpful + ineffective); null before any check. */
  ratio: number | null;
}

/**
 * Helpful and ineffective counts per lesson (first checked first) and overall, with the share
 * of helpful checks.
 *
 * @example
 * summarizeEffectiveness(checks).ratio; // 0.75
 */
export function summarizeEffectiveness(checks: readonly EffectivenessCheck[]): EffectivenessSummary {
  const byLesson = new Map<string, EffectivenessSummary["lessons"][number]>();
  for (const check of checks) {
    const row = byLesson.get(check.lesson_id) ?? { lesson_id: check.lesson_id, lesson_desc: check.lesson_desc, helpful: 0, ineffective: 0, ratio: null };
    row[check.effectiveness]++;
    row.ratio = row.helpful / (row.helpful + row.ineffective);
    byLesson.set(check.lesson_id, row);
  }
  const lessons = [...byLesson.values()];
  const helpful = lessons.reduce((sum, row) => sum + row.helpful, 0);
  const ineffective = lessons.reduce((sum, row) => sum + row.ineffective, 0);
  return { lessons, helpful, ineffective, ratio: helpful + ineffective === 0 ? null : helpful / (helpful + ineffective) };
}
