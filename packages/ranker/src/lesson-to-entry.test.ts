import { hashContent } from "@iflow-memory/parser";
import { describe, expect, it } from "vitest";
import { makeLesson } from "./__fixtures__/make-lesson.js";
import { lessonToEntry } from "./lesson-to-entry.js";
import { sortEntries } from "./sort-entries.js";

describe("lessonToEntry", () => {
  it("maps a lesson to an entry ranking treats like any other", () => {
    const lesson = makeLesson({ id: "m-004", type: "anti_pattern", description: "Splitting auth middleware causes duplication", frequency: 3, severity: "bug", tags: ["auth"], ts: "2026-04-04T11:00:00Z" });
    const entry = lessonToEntry(lesson, { path: "lessons.jsonl", line: 4 });
    expect({ ...entry, metadataText: undefined, metadata: undefined }).toEqual({
      name: "Splitting auth middleware causes duplication",
      headerLine: "### Anti-Pattern: Splitting auth middleware causes duplication",
      category: "anti-patterns",
      description: "Splitting auth middleware causes duplication",
      metadataText: undefined,
      metadata: undefined,
      observationCount: 3,
      confidence: "high",
      lastObserved: "2026-04-04T11:00:00Z",
      tags: ["auth"],
      filePosition: 4,
      contentHash: hashContent("Splitting auth middleware causes duplication"),
      scope: "local",
      origin: { path: "lessons.jsonl", line: 4 },
    });
    const rare = lessonToEntry(makeLesson({ id: "m-001", description: "rare", frequency: 1 }), { path: "lessons.jsonl", line: 1 });
    expect(sortEntries([rare, entry]).map((item) => item.name)).toEqual([entry.name, "rare"]);
  });
});
