import { describe, expect, it } from "vitest";
import { makeLesson } from "./__fixtures__/make-lesson.js";
import { formatKnownIssues, selectLessons } from "./select-lessons.js";

describe("selectLessons", () => {
  const lessons = [
    makeLesson({ id: "m-001", description: "candidate", frequency: 1 }),
    makeLesson({ id: "m-002", description: "writing issue", frequency: 3, domain: "writing" }),
    makeLesson({ id: "m-003", description: "general issue", frequency: 2, domain: "general" }),
    makeLesson({ id: "m-004", description: "preference", frequency: 1, type: "preference", domain: "general" }),
    makeLesson({ id: "m-005", description: "frequent writing", frequency: 5, domain: "writing", archetype: "story-sage" }),
    makeLesson({ id: "m-006", description: "sage code hint", frequency: 2, archetype: "sage" }),
    makeLesson({ id: "m-007", description: "code issue", frequency: 4 }),
  ];
  const ids = (filter: Parameters<typeof selectLessons>[1]) => selectLessons(lessons, filter).map((lesson) => lesson.id);

  it("injects preferences at once, frequency ≥ 5 always, and confirmed lessons of the domain or general, most frequent first", () => {
    expect(ids({ domain: "code" })).toEqual(["m-005", "m-007", "m-003", "m-006", "m-004"]);
  });

  it("filters by archetype: lessons for no archetype or for the one asked", () => {
    expect(ids({ domain: "code", archetype: "guardian" })).toEqual(["m-005", "m-007", "m-003", "m-004"]);
  });

  it("does not filter what was not asked", () => {
    expect(ids({})).toEqual(["m-005", "m-007", "m-002", "m-003", "m-006", "m-004"]);
  });

  it("caps the injection at ten lessons", () => {
    const many = Array.from({ length: 14 }, (_, index) => makeLesson({ id: `m-${index}`, description: `issue ${index}`, frequency: 2 + (index % 3) }));
    expect(selectLessons(many).length).toBe(10);
  });
});

describe("formatKnownIssues", () => {
  it("prints the section ArcheFlow appends to prompts, and nothing at all for no lessons", () => {
    const lesson = makeLesson({ id: "m-001", description: "Timeline references must match story start day", frequency: 3 });
    expect([formatKnownIssues([lesson]), formatKnownIssues([])]).toEqual(["## Known Issues (from past runs)\n- Timeline references must match story start day [seen 3x, guardian]\n", ""]);
  });
});
