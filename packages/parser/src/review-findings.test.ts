import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPORA_DIR } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readReviewFindings } from "./review-findings.js";

describe("readReviewFindings", () => {
  it("reads every finding of every review.verdict event of a real ArcheFlow stream, in order, and the first event's run id", () => {
    const text = readFileSync(join(CORPORA_DIR, "archeflow/scored-events.jsonl"), "utf8");
    expect(readReviewFindings(text, "scored-events.jsonl")).toEqual({
      runId: "score-run",
      findings: [
        { runId: "score-run", archetype: "guardian", severity: "warning", description: "Missing validation", category: null },
        { runId: "score-run", archetype: "guardian", severity: "info", description: "Consider logging", category: null },
      ],
      warnings: [],
    });
  });

  it("skips a malformed line and a finding without a description, with warnings", () => {
    const text = 'garbage\n{"run_id":"r","type":"review.verdict","data":{"archetype":"sage","findings":[{"severity":"bug"},{"severity":"bug","description":"Off by one","category":"code"}]}}\n';
    expect(readReviewFindings(text, "e.jsonl")).toEqual({
      runId: "r",
      findings: [{ runId: "r", archetype: "sage", severity: "bug", description: "Off by one", category: "code" }],
      warnings: [
        { path: "e.jsonl", line: 1, message: "not valid JSON; skipped" },
        { path: "e.jsonl", line: 2, message: "finding 1 has no description; skipped" },
      ],
    });
  });
});
