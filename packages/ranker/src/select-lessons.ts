import type { Lesson } from "@iflow-memory/parser";

/** At most this many lessons are injected into one prompt. */
export const MAX_INJECTED_LESSONS = 10;

/**
 * The lessons to inject: every preference, every lesson seen five times or more, and the
 * confirmed ones (frequency ≥ 2) of the asked domain (or `general`) and archetype (or none);
 * most frequent first (stable), at most ten. No domain or archetype asked: no filter on it.
 *
 * @example
 * selectLessons(lessons, { domain: "code", archetype: "guardian" }).map((lesson) => lesson.id); // ["m-007", "m-001"]
 */
export function selectLessons(lessons: readonly Lesson[], filter: { domain?: string | undefined; archetype?: string | undefined } = {}): Lesson[] {
  const domain = filter.domain === "" ? undefined : filter.domain;
  const archetype = filter.archetype === "" ? undefined : filter.archetype;
  const kept = lessons.filter(
    (lesson) =>
      lesson.type === "preference" ||
      lesson.frequency >= 5 ||
      (lesson.frequency >= 2 &&
        (domain === undefined || lesson.domain === domain || lesson.domain === "general") &&
        (archetype === undefined || lesson.archetype === null || lesson.archetype === archetype)),
  );
  return kept
    .map((lesson, index) => ({ lesson, index }))
    .sort((a, b) => b.lesson.frequency - a.lesson.frequency || a.index - b.index)
    .slice(0, MAX_INJECTED_LESSONS)
    .map(({ lesson }) => lesson);
}

/**
 * The prompt section for injected lessons, or "" when there are none.
 *
 * @example
 * formatKnownIssues([lesson]);
 * // "## Known Issues (from past runs)\n- Timeline references must match story start day [seen 3x, guardian]\n"
 */
export function formatKnownIssues(lessons: readonly Lesson[]): string {
  if (lessons.length === 0) return "";
  return `## Known Issues (from past runs)\n${lessons.map((lesson) => `- ${lesson.description} [seen ${lesson.frequency}x, ${lesson.source}]\n`).join("")}`;
}
