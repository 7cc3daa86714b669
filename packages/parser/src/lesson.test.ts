import { describe, expect, it } from "vitest";
import { lessonId, lessonNumber, parseLessonLines, serializeLesson } from "./lesson.js";

describe("parseLessonLines", () => {
  it("fills the fields ArcheFlow leaves out with their defaults and keeps unknown ones aside", () => {
    const { lines, warnings } = parseLessonLines('{"id":"m-007","description":"Check nulls","frequency":2,"extra_field":[1]}\n', "lessons.jsonl");
    expect([lines, warnings]).toEqual([
      [
        {
          kind: "lesson",
          line: 1,
          raw: '{"id":"m-007","description":"Check nulls","frequency":2,"extra_field":[1]}',
          lesson: { id: "m-007", ts: "", run_id: "", type: "pattern", source: "unknown", description: "Check nulls", frequency: 2, severity: "info", domain: "general", tags: [], archetype: null, last_seen_run: "", runs_since_last_seen: 0, extra: { extra_field: [1] } },
        },
      ],
      [],
    ]);
  });

  it("reports each kind of bad line once, with its line number, and keeps it as read", () => {
    const text = ['[1,2]', '{"id":7,"description":"x","frequency":1}', '{"id":"m-1","description":"x","frequency":-1}', '{"id":"m-2","description":"x","frequency":1,"tags":"a,b"}', '{"id":"m-3","description":"x","frequency":1,"archetype":5}', "", '{"id":"m-4","description":"","frequency":1}'].join("\n");
    const { lines, warnings } = parseLessonLines(text, "l.jsonl");
    expect(lines.map((line) => line.kind)).toEqual(["invalid", "invalid", "invalid", "invalid", "invalid", "invalid", "invalid"]);
    expect(warnings.map((warning) => `${warning.line}: ${warning.message}`)).toEqual([
      "1: not a JSON object; skipped and kept as it is",
      "2: id is 7, not a string; skipped and kept as it is",
      "3: frequency is -1, not a whole number of 0 or more; skipped and kept as it is",
      '4: tags is "a,b", not a list of strings; skipped and kept as it is',
      "5: archetype is 5, not a string or null; skipped and kept as it is",
      "7: has no description; skipped and kept as it is",
    ]);
  });
});

describe("serializeLesson", () => {
  it("writes ArcheFlow's fields in its order, unknown fields after them", () => {
    const [line] = parseLessonLines('{"zzz":true,"frequency":1,"description":"d","id":"m-001"}', "l").lines;
    expect(line!.kind === "lesson" && serializeLesson(line!.lesson)).toBe(
      '{"id":"m-001","ts":"","run_id":"","type":"pattern","source":"unknown","description":"d","frequency":1,"severity":"info","domain":"general","tags":[],"archetype":null,"last_seen_run":"","runs_since_last_seen":0,"zzz":true}',
    );
  });
});

describe("lessonId", () => {
  it("pads to three digits and grows past them; lessonNumber reads it back", () => {
    expect([lessonId(7), lessonId(1234), lessonNumber("m-007"), lessonNumber("m-1234"), lessonNumber("x-1")]).toEqual(["m-007", "m-1234", 7, 1234, null]);
  });
});
