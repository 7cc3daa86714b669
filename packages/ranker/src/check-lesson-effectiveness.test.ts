import type { ReviewFinding } from "@iflow-memory/parser";
import { describe, expect, it } from "vitest";
import { makeLesson } from "./__fixtures__/make-lesson.js";
import { checkLessonEffectiveness, summarizeEffectiveness } from "./check-lesson-effectiveness.js";

const finding = (description: string): ReviewFinding => ({ runId: "r8", archetype: "guardian", severity: "warning", description, category: "code" });
const lesson = makeLesson({ id: "m-001", description: "Missing input validation on user endpoint" });

describe("checkLessonEffectiveness", () => {
  it("marks a lesson helpful when its finding does not recur in the run", () => {
    expect(checkLessonEffectiveness([lesson], [finding("Typo in the changelog")], { runId: "r8", now: "t" })).toEqual([
      { ts: "t", run_id: "r8", type: "effectiveness_check", lesson_id: "m-001", lesson_desc: lesson.description, effectiveness: "helpful", keyword_overlap_pct: 0 },
    ]);
  });

  it("marks it ineffective when 30% or more of its keywords come back in the run's findings", () => {
    // lesson keywords: missing input validation user endpoint → 2 of 5 = 40%
    const [check] = checkLessonEffectiveness([lesson], [finding("Endpoint has no rate limit"), finding("Validation message unclear")], { runId: "r8", now: "t" });
    expect([check!.effectiveness, check!.keyword_overlap_pct]).toEqual(["ineffective", 40]);
    const [below] = checkLessonEffectiveness([lesson], [finding("Endpoint has no rate limit")], { runId: "r8", now: "t" });
    expect([below!.effectiveness, below!.keyword_overlap_pct]).toEqual(["helpful", 20]);
  });
});

describe("summarizeEffectiveness", () => {
  it("counts per lesson and overall, with the helpful share", () => {
    const checks = [
      ...checkLessonEffectiveness([lesson], [], { runId: "r1", now: "t" }),
      ...checkLessonEffectiveness([lesson], [finding("missing input validation")], { runId: "r2", now: "t" }),
      ...checkLessonEffectiveness([makeLesson({ id: "m-002", description: "Squash commits" })], [], { runId: "r2", now: "t" }),
    ];
    expect(summarizeEffectiveness(checks)).toEqual({
      lessons: [
        { lesson_id: "m-001", lesson_desc: lesson.description, helpful: 1, ineffective: 1, ratio: 0.5 },
        { lesson_id: "m-002", lesson_desc: "Squash commits", helpful: 1, ineffective: 0, ratio: 1 },
      ],
      helpful: 2,
      ineffective: 1,
      ratio: 2 / 3,
    });
    expect(summarizeEffectiveness([]).ratio).toBeNull();
  });
});
