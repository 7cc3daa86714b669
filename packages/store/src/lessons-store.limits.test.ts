import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_LESSON_DESCRIPTION } from "@iflow-memory/parser";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { addLesson, decayLessonsInDirectory, extractLessonsFromEvents, forgetLesson } from "./manage-lessons.js";

const HUGE_ID = '{"id":"m-999999999999999999999","ts":"2026-04-03T14:00:00Z","run_id":"r0","type":"pattern","source":"guardian","description":"Timeline references must match story start day","frequency":2,"severity":"bug","domain":"writing","tags":["timeline"],"last_seen_run":"r0","runs_since_last_seen":0}';

function memoryDir(lines: string[] = []): string {
  const directory = join(makeTempDir(), ".archeflow/memory");
  mkdirSync(directory, { recursive: true });
  if (lines.length > 0) writeFileSync(join(directory, "lessons.jsonl"), `${lines.join("\n")}\n`);
  return directory;
}

describe("addLesson (ids)", () => {
  it("gives the next id after a huge one in full digits, never as m-1e+21", async () => {
    const directory = memoryDir([HUGE_ID]);
    expect((await addLesson(directory, { description: "User prefers one bundled PR" })).id).toBe("m-1000000000000000000000");
    expect((await addLesson(directory, { description: "User prefers squash merges" })).id).toBe("m-1000000000000000000001");
  });
});

describe("extractLessonsFromEvents (size)", () => {
  it("stores at most MAX_LESSON_DESCRIPTION characters of a huge finding, and says what was cut", async () => {
    const directory = memoryDir();
    const description = `Missing validation ${"of the payload ".repeat(70_000)}`; // about 1 MB
    const path = join(directory, "..", "r1.jsonl");
    writeFileSync(path, `${JSON.stringify({ run_id: "r1", type: "review.verdict", data: { archetype: "guardian", findings: [{ severity: "warning", description, category: "code" }] } })}\n`);
    const report = await extractLessonsFromEvents(directory, path);
    const stored = report.added[0]!.description;
    expect(stored.length).toBeLessThanOrEqual(MAX_LESSON_DESCRIPTION + 60);
    expect(stored.startsWith(description.slice(0, MAX_LESSON_DESCRIPTION))).toBe(true);
    expect(stored.endsWith(` [… ${description.length - MAX_LESSON_DESCRIPTION} more characters cut]`)).toBe(true);
    expect(statSync(join(directory, "lessons.jsonl")).size).toBeLessThan(20_000);
    expect(readFileSync(join(directory, "lessons.jsonl"), "utf8").split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("caps a lesson added by hand the same way", async () => {
    const directory = memoryDir();
    const lesson = await addLesson(directory, { description: "x".repeat(MAX_LESSON_DESCRIPTION * 3) });
    expect(lesson.description).toBe(`${"x".repeat(MAX_LESSON_DESCRIPTION)} [… ${MAX_LESSON_DESCRIPTION * 2} more characters cut]`);
  });
});

describe("updateLessons (an oversized lessons.jsonl)", () => {
  it("refuses add, forget, extract and decay over a lessons.jsonl past the read limit, and leaves it as it was", async () => {
    const directory = memoryDir([HUGE_ID]);
    const path = join(directory, "lessons.jsonl");
    truncateSync(path, 65 * 1024 * 1024); // sparse: past the 64 MiB limit without writing it
    const events = join(directory, "..", "r1.jsonl");
    writeFileSync(events, `${JSON.stringify({ run_id: "r1", type: "review.verdict", data: { archetype: "guardian", findings: [{ severity: "warning", description: "Missing validation" }] } })}\n`);
    const attempts = [() => addLesson(directory, { description: "Prefer small steps" }), () => forgetLesson(directory, "m-999999999999999999999"), () => extractLessonsFromEvents(directory, events), () => decayLessonsInDirectory(directory)];
    for (const attempt of attempts) {
      await expect(attempt()).rejects.toThrow(/^cannot change .*lessons\.jsonl: .*; nothing was changed — fix or move the file, then run the command again$/);
    }
    expect(statSync(path).size).toBe(65 * 1024 * 1024);
  });
});
