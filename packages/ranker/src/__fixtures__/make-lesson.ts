import type { Lesson } from "@iflow-memory/parser";

/** A lesson for tests: a confirmed code pattern unless the test says otherwise. */
export function makeLesson(fields: Partial<Lesson> & { id: string; description: string }): Lesson {
  return {
    ts: "2026-04-03T14:00:00Z",
    run_id: "r0",
    type: "pattern",
    source: "guardian",
    frequency: 2,
    severity: "warning",
    domain: "code",
    tags: [],
    archetype: null,
    last_seen_run: "r0",
    runs_since_last_seen: 0,
    extra: {},
    ...fields,
  };
}
