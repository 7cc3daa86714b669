import { capLessonDescription } from "./lesson.js";

/** One finding of a `review.verdict` event. */
export interface ReviewFinding {
  runId: string;
  archetype: string;
  severity: string;
  description: string;
  category: string | null;
}

/**
 * The findings of every `review.verdict` event of an ArcheFlow event stream (JSONL), in event
 * order, and the run id (the first event's `run_id`). Malformed lines and findings without a
 * description are reported and skipped; a description is cut to `MAX_LESSON_DESCRIPTION`
 * characters. Never throws.
 *
 * @example
 * readReviewFindings('{"run_id":"r1","type":"review.verdict","data":{"archetype":"guardian","findings":[{"severity":"warning","description":"Missing validation","category":"code"}]}}\n', "r1.jsonl");
 * // { runId: "r1", findings: [{ runId: "r1", archetype: "guardian", severity: "warning", description: "Missing validation", category: "code" }], warnings: [] }
 */
export function readReviewFindings(text: string, path: string): {
  runId: string | null;
  findings: ReviewFinding[];
  warnings: Array<{ path: string; line: number; message: string }>;
} {
  let runId: string | null = null;
  const findings: ReviewFinding[] = [];
  const warnings: Array<{ path: string; line: number; message: string }> = [];
  text.split("\n").forEach((raw, index) => {
    if (raw.trim() === "") return;
    const line = index + 1;
    let event: { run_id?: unknown; type?: unknown; data?: { archetype?: unknown; findings?: unknown } };
    try {
      event = JSON.parse(raw) as typeof event;
    } catch {
      warnings.push({ path, line, message: "not valid JSON; skipped" });
      return;
    }
    if (event === null || typeof event !== "object") {
      warnings.push({ path, line, message: "not a JSON object; skipped" });
      return;
    }
    if (runId === null && typeof event.run_id === "string") runId = event.run_id;
    if (event.type !== "review.verdict") return;
    const archetype = typeof event.data?.archetype === "string" ? event.data.archetype : "unknown";
    const list = Array.isArray(event.data?.findings) ? (event.data.findings as unknown[]) : [];
    list.forEach((item, position) => {
      const finding = (item ?? {}) as { severity?: unknown; description?: unknown; category?: unknown };
      if (typeof finding.description !== "string" || finding.description.trim() === "") {
        warnings.push({ path, line, message: `finding ${position + 1} has no description; skipped` });
        return;
      }
      findings.push({
        runId: typeof event.run_id === "string" ? event.run_id : "",
        archetype,
        severity: typeof finding.severity === "string" ? finding.severity : "",
        // A finding is a learning, not a log: a huge one is cut (and says so) before it is stored.
        description: capLessonDescription(finding.description),
        category: typeof finding.category === "string" && finding.category !== "" ? finding.category : null,
      });
    });
  });
  return { runId, findings, warnings };
}
