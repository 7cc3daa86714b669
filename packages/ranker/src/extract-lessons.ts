import type { Lesson, ReviewFinding } from "@iflow-memory/parser";
import { keywordOverlap, lessonKeywords, lessonTags } from "./lesson-keywords.js";

/** Severities whose findings never become or confirm lessons. */
export const IGNORED_SEVERITIES: readonly string[] = ["info", "recommendation"];

/** Keyword overlap (percent of the finding's keywords) from which a finding confirms a lesson. */
export const MATCH_THRESHOLD = 50;

export interface ExtractedLessons {
  lessons: Lesson[];
  /** Ids of the lessons created, and of those a finding confirmed (once per id). */
  added: string[];
  updated: string[];
  /** Findings left out for their severity. */
  skipped: number;
}

/**
 * Learns from one run's review findings, in event order, each finding seeing what the ones
 * before it did: a finding whose keywords overlap a lesson's description by 50% or more
 * (the first such lesson in file order) confirms it — frequency + 1, seen in this run; any
 * other finding becomes a candidate lesson at frequency 1. Findings of severity `info` or
 * `recommendation` are skipped.
 *
 * @example
 * extractLessons(lessons, findings, { runId: "r7", now: "2026-11-22T10:00:00Z", newId: () => "m-005" });
 * // { lessons: […], added: ["m-005"], updated: ["m-001"], skipped: 1 }
 */
export function extractLessons(
  lessons: readonly Lesson[],
  findings: readonly ReviewFinding[],
  options: { runId: string; now: string; newId: () => string },
): ExtractedLessons {
  const result = [...lessons];
  const keywords = result.map((lesson) => lessonKeywords(lesson.description));
  const added: string[] = [];
  const updated = new Set<string>();
  let skipped = 0;
  for (const finding of findings) {
    if (IGNORED_SEVERITIES.includes(finding.severity.toLowerCase())) {
      skipped++;
      continue;
    }
    const findingKeywords = lessonKeywords(finding.description);
    const index = keywords.findIndex((lessonWords) => keywordOverlap(findingKeywords, lessonWords) >= MATCH_THRESHOLD);
    if (index >= 0) {
      const lesson = result[index]!;
      result[index] = { ...lesson, frequency: lesson.frequency + 1, ts: options.now, last_seen_run: options.runId, runs_since_last_seen: 0 };
      if (!added.includes(lesson.id)) updated.add(lesson.id);
      continue;
    }
    const lesson: Lesson = {
      id: options.newId(),
      ts: options.now,
      run_id: options.runId,
      type: "pattern",
      source: finding.archetype,
      description: finding.description,
      frequency: 1,
      severity: finding.severity,
      domain: finding.category ?? "general",
      tags: lessonTags(finding.description),
      archetype: null,
      last_seen_run: options.runId,
      runs_since_last_seen: 0,
      extra: {},
    };
    result.push(lesson);
    keywords.push(lessonKeywords(lesson.description));
    added.push(lesson.id);
  }
  return { lessons: result, added, updated: [...updated], skipped };
}
