import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readReviewFindings, type ReviewFinding } from "@iflow-memory/parser";
import { CORPORA_DIR } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { makeLesson } from "./__fixtures__/make-lesson.js";
import { extractLessons } from "./extract-lessons.js";
import { selectLessons } from "./select-lessons.js";

const finding = (description: string, severity = "warning", archetype = "guardian", category: string | null = "code"): ReviewFinding => ({ runId: "r", archetype, severity, description, category });
const ids = () => {
  let next = 0;
  return () => `m-${String(++next).padStart(3, "0")}`;
};

describe("extractLessons", () => {
  it("turns a new finding into a candidate lesson at frequency 1, in ArcheFlow's exact shape", () => {
    const text = readFileSync(join(CORPORA_DIR, "archeflow/memory-test-events.jsonl"), "utf8");
    const { runId, findings } = readReviewFindings(text, "events.jsonl");
    const result = extractLessons([], findings, { runId: runId!, now: "2026-11-22T10:00:00Z", newId: ids() });
    expect(result).toEqual({
      lessons: [
        {
          id: "m-001",
          ts: "2026-11-22T10:00:00Z",
          run_id: "test-run",
          type: "pattern",
          source: "guardian",
          description: "Missing input validation on user endpoint",
          frequency: 1,
          severity: "warning",
          domain: "code",
          tags: ["missing", "input", "validation", "user", "endpoint"],
          archetype: null,
          last_seen_run: "test-run",
          runs_since_last_seen: 0,
          extra: {},
        },
      ],
      added: ["m-001"],
      updated: [],
      skipped: 0,
    });
  });

  it("promotes a finding that recurs in a second run to frequency 2, which makes it injectable; a one-off stays a candidate", () => {
    const first = extractLessons([], [finding("Missing input validation on user endpoint"), finding("Typo in README heading")], { runId: "r1", now: "t1", newId: ids() });
    const second = extractLessons(first.lessons, [finding("User endpoint lacks input validation")], { runId: "r2", now: "t2", newId: ids() });
    expect(second.lessons.map((lesson) => [lesson.id, lesson.frequency, lesson.last_seen_run, lesson.ts])).toEqual([
      ["m-001", 2, "r2", "t2"],
      ["m-002", 1, "r1", "t1"],
    ]);
    expect(second.updated).toEqual(["m-001"]);
    expect(selectLessons(second.lessons).map((lesson) => lesson.id)).toEqual(["m-001"]);
  });

  it("matches at 50% of the finding's keywords and not below, against the first matching lesson in file order", () => {
    const lessons = [makeLesson({ id: "m-001", description: "alpha beta", frequency: 1 }), makeLesson({ id: "m-002", description: "alpha beta gamma", frequency: 1 })];
    const half = extractLessons(lessons, [finding("alpha delta")], { runId: "r", now: "t", newId: ids() });
    expect(half.lessons.map((lesson) => lesson.frequency)).toEqual([2, 1]);
    const third = extractLessons(lessons, [finding("alpha delta epsilon")], { runId: "r", now: "t", newId: () => "m-003" });
    expect([third.added, third.lessons.map((lesson) => lesson.frequency)]).toEqual([["m-003"], [1, 1, 1]]);
  });

  it("skips findings of severity info and recommendation, and lets each finding see the lessons the ones before it wrote", () => {
    const result = extractLessons([], [finding("Consider logging", "info"), finding("Prefer const", "recommendation"), finding("Race in cache refresh", "bug"), finding("cache refresh race", "warning", "sage", null)], {
      runId: "r1",
      now: "t",
      newId: ids(),
    });
    expect([result.skipped, result.lessons.map((lesson) => [lesson.id, lesson.frequency, lesson.severity, lesson.domain])]).toEqual([2, [["m-001", 2, "bug", "code"]]]);
  });

  it("names the source unknown when the verdict has no archetype, and the domain general without a category", () => {
    const text = '{"run_id":"r9","type":"review.verdict","data":{"findings":[{"severity":"warning","description":"Flaky test in CI"}]}}\n';
    const { findings } = readReviewFindings(text, "e.jsonl");
    const [lesson] = extractLessons([], findings, { runId: "r9", now: "t", newId: ids() }).lessons;
    expect([lesson!.source, lesson!.domain]).toEqual(["unknown", "general"]);
  });
});
