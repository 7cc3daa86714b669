import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readLessons } from "./lessons-store.js";
import { addLesson, auditCheck, extractLessonsFromEvents, forgetLesson, injectLessons } from "./manage-lessons.js";

// The four example lines of ArcheFlow's memory skill, each with a field of some newer ArcheFlow
// that this tool does not know, and the third with ArcheFlow's own key order.
const SKILL_LINES = [
  '{"id":"m-001","ts":"2026-04-03T14:00:00Z","run_id":"2026-04-03-der-huster","type":"pattern","source":"guardian","description":"Timeline references must match story start day","frequency":2,"severity":"bug","domain":"writing","tags":["continuity","timeline"],"last_seen_run":"2026-04-03-der-huster","runs_since_last_seen":0,"confidence_note":"from a reviewer"}',
  '{"id":"m-002","ts":"2026-04-03T15:00:00Z","run_id":"2026-04-03-der-huster","type":"preference","source":"user_feedback","description":"User prefers single bundled PR over many small ones","frequency":1,"severity":"info","domain":"general","tags":["workflow"],"last_seen_run":"","runs_since_last_seen":0,"x_team":"core"}',
  '{"id":"m-003","ts":"2026-04-04T10:00:00Z","run_id":"2026-04-04-auth-fix","type":"archetype_hint","source":"sage","description":"Voice drift most common in long monologue passages","frequency":3,"severity":"warning","domain":"writing","tags":["voice","prose"],"archetype":"story-sage","last_seen_run":"2026-04-04-auth-fix","runs_since_last_seen":0,"links":{"pr":17}}',
  '{"id":"m-004","ts":"2026-04-04T11:00:00Z","run_id":"2026-04-04-auth-fix","type":"anti_pattern","source":"maker","description":"Splitting auth middleware into per-route handlers causes duplication","frequency":1,"severity":"warning","domain":"code","tags":["auth","middleware"],"last_seen_run":"2026-04-04-auth-fix","runs_since_last_seen":0,"weight":0.5}',
];

function memoryDir(lines: string[]): string {
  const directory = join(makeTempDir(), ".archeflow/memory");
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "lessons.jsonl"), `${lines.join("\n")}\n`);
  return directory;
}

function events(directory: string, runId: string, findings: Array<{ severity: string; description: string; category?: string }>, archetype = "guardian"): string {
  const path = join(directory, "..", `${runId}.jsonl`);
  const lines = [
    { run_id: runId, seq: 1, type: "run.start", data: {} },
    { run_id: runId, seq: 2, type: "review.verdict", data: { archetype, verdict: "needs_changes", findings } },
  ];
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return path;
}

const clock = () => new Date("2026-11-22T10:00:00Z");

describe("lessons in an ArcheFlow memory directory", () => {
  it("reads the skill's four lines, updates one, and writes back every unknown field, the untouched lines byte for byte", async () => {
    const directory = memoryDir(SKILL_LINES);
    const read = await readLessons(directory);
    expect(read.lessons.map((lesson) => [lesson.id, lesson.archetype, lesson.extra])).toEqual([
      ["m-001", null, { confidence_note: "from a reviewer" }],
      ["m-002", null, { x_team: "core" }],
      ["m-003", "story-sage", { links: { pr: 17 } }],
      ["m-004", null, { weight: 0.5 }],
    ]);

    await extractLessonsFromEvents(directory, events(directory, "2026-04-05-next", [{ severity: "bug", description: "Timeline reference does not match the story start day", category: "writing" }]), { clock });
    const lines = readFileSync(join(directory, "lessons.jsonl"), "utf8").split("\n");
    expect([lines[1], lines[2], lines[3], lines[4]]).toEqual([SKILL_LINES[1], SKILL_LINES[2], SKILL_LINES[3], ""]);
    expect(JSON.parse(lines[0]!)).toEqual({
      ...(JSON.parse(SKILL_LINES[0]!) as object),
      frequency: 3,
      ts: "2026-11-22T10:00:00Z",
      last_seen_run: "2026-04-05-next",
      runs_since_last_seen: 0,
      archetype: null,
    });
  });

  it("reports a malformed line and a wrong-typed field, skips them, never drops them, and still injects the rest", async () => {
    const bad = ['{"id":"m-005","description":"Frequency as text","frequency":"3"}', "{not json", '{"id":"m-006","description":"no frequency"}'];
    const directory = memoryDir([SKILL_LINES[0]!, ...bad, SKILL_LINES[2]!]);
    const read = await readLessons(directory);
    expect(read.warnings.map((warning) => [warning.line, warning.message])).toEqual([
      [2, 'frequency is "3", not a whole number of 0 or more; skipped and kept as it is'],
      [3, "not valid JSON; skipped and kept as it is"],
      [4, "frequency is missing, not a whole number of 0 or more; skipped and kept as it is"],
    ]);
    const injected = await injectLessons(directory, { domain: "writing" });
    expect(injected.lessons.map((lesson) => lesson.id)).toEqual(["m-003", "m-001"]);

    await addLesson(directory, { description: "Keep commits small" }, clock);
    const lines = readFileSync(join(directory, "lessons.jsonl"), "utf8").split("\n");
    expect(lines.slice(0, 5)).toEqual([SKILL_LINES[0], ...bad, SKILL_LINES[2]]);
    expect(JSON.parse(lines[5]!)).toMatchObject({ id: "m-004", description: "Keep commits small", type: "preference" });
  });

  it("never reuses an id, not after the highest lesson is forgotten nor after the archive is cleared", async () => {
    const directory = memoryDir(SKILL_LINES);
    await forgetLesson(directory, "m-004");
    expect((await addLesson(directory, { description: "first" }, clock)).id).toBe("m-005");
    await forgetLesson(directory, "m-005");
    writeFileSync(join(directory, "archive.jsonl"), "");
    expect((await addLesson(directory, { description: "second" }, clock)).id).toBe("m-006");
    expect(readFileSync(join(directory, "lessons.jsonl"), "utf8").split("\n").filter((line) => line !== "").map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(["m-001", "m-002", "m-003", "m-006"]);
  });

  it("forgets into archive.jsonl, and refuses an unknown id with a clear message", async () => {
    const directory = memoryDir(SKILL_LINES);
    await forgetLesson(directory, "m-002");
    expect(readFileSync(join(directory, "archive.jsonl"), "utf8")).toBe(`${SKILL_LINES[1]!}\n`);
    await expect(forgetLesson(directory, "m-999")).rejects.toThrow(/^cannot forget m-999: no lesson with that id in .*lessons\.jsonl; see iflow-memory lessons list$/);
  });

  it("does not count a run twice when it is extracted again", async () => {
    const directory = memoryDir([]);
    const path = events(directory, "r1", [{ severity: "warning", description: "Flaky integration test on CI" }]);
    await extractLessonsFromEvents(directory, path, { clock });
    const again = await extractLessonsFromEvents(directory, path, { clock });
    expect(again.alreadyExtracted).toBe(true);
    expect((await readLessons(directory)).lessons.map((lesson) => lesson.frequency)).toEqual([1]);
  });

  it("audits an injection, checks it once per run however often audit-check runs, and tells helpful from ineffective", async () => {
    const directory = memoryDir(SKILL_LINES);
    await injectLessons(directory, { domain: "writing", auditRunId: "r8", clock });
    const path = events(directory, "r8", [{ severity: "bug", description: "Timeline reference contradicts the story start day", category: "writing" }]);
    const first = await auditCheck(directory, "r8", path, clock);
    const second = await auditCheck(directory, "r8", path, clock);
    expect(first.checks.map((check) => [check.lesson_id, check.effectiveness])).toEqual([
      ["m-003", "helpful"],
      ["m-001", "ineffective"],
      ["m-002", "helpful"],
    ]);
    expect([second.checks, second.alreadyChecked]).toEqual([[], ["m-003", "m-001", "m-002"]]);
    const audit = readFileSync(join(directory, "audit.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit.map((record) => record.type ?? "injection")).toEqual(["injection", "effectiveness_check", "effectiveness_check", "effectiveness_check"]);
    expect(audit[0]).toEqual({ ts: "2026-11-22T10:00:00Z", run_id: "r8", domain: "writing", archetype: "", lessons_injected: ["m-003", "m-001", "m-002"], lesson_count: 3 });
  });

  it("refuses to change lessons when lessons.jsonl or archive.jsonl is there but cannot be read, and leaves both as they were", async () => {
    for (const name of ["lessons.jsonl", "archive.jsonl"]) {
      const directory = memoryDir(SKILL_LINES);
      const path = join(directory, name);
      rmSync(path, { force: true });
      execFileSync("mkfifo", [path]); // not a file: read as nothing, it would have been replaced by the new lessons alone
      await expect(addLesson(directory, { description: "Prefer small steps" }, clock)).rejects.toThrow(
        new RegExp(`^cannot change ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: is a FIFO, not a file; nothing was changed — fix or move the file, then run the command again$`),
      );
      expect(statSync(path).isFIFO()).toBe(true);
      if (name === "archive.jsonl") expect(readFileSync(join(directory, "lessons.jsonl"), "utf8")).toBe(`${SKILL_LINES.join("\n")}\n`);
    }
  });

  it("treats a missing directory as no lessons, and creates it on the first write", async () => {
    const directory = join(makeTempDir(), "nested/memory");
    expect((await readLessons(directory)).lessons).toEqual([]);
    expect((await injectLessons(directory)).text).toBe("");
    await addLesson(directory, { description: "Prefer small steps" }, clock);
    expect(existsSync(join(directory, "lessons.jsonl"))).toBe(true);
  });
});
