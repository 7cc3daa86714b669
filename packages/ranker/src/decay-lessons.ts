import type { Lesson } from "@iflow-memory/parser";

/** A lesson unseen for this many runs loses one frequency point. */
export const DECAY_INTERVAL = 10;

/**
 * Ages every lesson not seen in `runId` (null: none was) by one run; after ten unseen runs it
 * loses one frequency point and its counter restarts; at frequency 0 it is archived. A lesson
 * seen five times thus survives fifty unseen runs.
 *
 * @example
 * decayLessons(lessons, "r12"); // { kept: […], archived: [lessonAtZero] }
 */
export function decayLessons(lessons: readonly Lesson[], runId: string | null): { kept: Lesson[]; archived: Lesson[] } {
  const kept: Lesson[] = [];
  const archived: Lesson[] = [];
  for (const lesson of lessons) {
    if (runId !== null && lesson.last_seen_run === runId) {
      kept.push(lesson);
      continue;
    }
    let aged: Lesson = { ...lesson, runs_since_last_seen: lesson.runs_since_last_seen + 1 };
    if (aged.runs_since_last_seen >= DECAY_INTERVAL) aged = { ...aged, frequency: Math.max(0, aged.frequency - 1), runs_since_last_seen: 0 };
    (aged.frequency <= 0 ? archived : kept).push(aged);
  }
  return { kept, archived };
}
