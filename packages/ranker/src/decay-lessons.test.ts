import { describe, expect, it } from "vitest";
import { makeLesson } from "./__fixtures__/make-lesson.js";
import { decayLessons } from "./decay-lessons.js";

describe("decayLessons", () => {
  it("ages only the lessons not seen in the current run", () => {
    const seen = makeLesson({ id: "m-001", description: "a", last_seen_run: "r5", runs_since_last_seen: 0 });
    const unseen = makeLesson({ id: "m-002", description: "b", last_seen_run: "r1", runs_since_last_seen: 3 });
    expect(decayLessons([seen, unseen], "r5")).toEqual({ kept: [seen, { ...unseen, runs_since_last_seen: 4 }], archived: [] });
  });

  it("takes one frequency point every ten unseen runs, and archives a lesson seen five times after fifty", () => {
    let lessons = [makeLesson({ id: "m-001", description: "a", frequency: 5, last_seen_run: "r0" })];
    const frequencies: number[] = [];
    const archived = [];
    for (let run = 1; run <= 50; run++) {
      const result = decayLessons(lessons, `r${run}`);
      lessons = result.kept;
      archived.push(...result.archived);
      if (run % 10 === 9) frequencies.push(lessons[0]!.frequency);
    }
    expect(frequencies).toEqual([5, 4, 3, 2, 1]);
    expect([lessons, archived.map((lesson) => [lesson.id, lesson.frequency])]).toEqual([[], [["m-001", 0]]]);
  });

  it("ages every lesson when no run is given", () => {
    const lesson = makeLesson({ id: "m-001", description: "a", last_seen_run: "r1", runs_since_last_seen: 9, frequency: 1 });
    expect(decayLessons([lesson], null)).toEqual({ kept: [], archived: [{ ...lesson, frequency: 0, runs_since_last_seen: 0 }] });
  });
});
