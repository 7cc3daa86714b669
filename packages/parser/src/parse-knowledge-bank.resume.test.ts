import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@iflow-memory/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseKnowledgeBank, resumePoint, type ParseOptions } from "./parse-knowledge-bank.js";

const OPTIONS: ParseOptions = { category: "heuristics", scope: "local", path: "heuristics.md" };
const REAL = readFileSync(join(REPO_ROOT, "test/fixtures/corpora/iflow-kb-2026-04/docs/knowledge-bank/heuristics.md"), "utf8");

// A file that grew: parsed whole, and parsed again from where its earlier version may resume.
function both(earlier: string, appended: string) {
  const whole = parseKnowledgeBank(earlier + appended, OPTIONS);
  const before = parseKnowledgeBank(earlier, OPTIONS);
  const from = resumePoint(earlier, before.entries);
  if (from === null) return { whole, from, resumed: null };
  const rest = parseKnowledgeBank(earlier + appended, { ...OPTIONS, from });
  const kept = before.entries.slice(0, from.filePosition - 1);
  return { whole, from, resumed: { entries: [...kept, ...rest.entries], warnings: [...before.warnings.filter((warning) => warning.line < from.line), ...rest.warnings] } };
}

// Pieces that move a parser's state: headings, fences, comments, code spans, line ends, a BOM.
const piece = fc.constantFrom(
  "### Heuristic: Retry budgets\n",
  "### Pattern: Thin Orchestrator\n",
  "## Section\n",
  "# Title\n",
  "Keep the retry budget small.\n",
  "- Observation count: 3\n",
  "- Confidence: high\n",
  "- Tags: retry, http\n",
  "```\n",
  "~~~~\n",
  "```ts\nconst x = 1;\n",
  "<!-- a note -->\n",
  "<!-- open\n",
  "close -->\n",
  "-->\n",
  "see `<!--` here\n",
  "\r\n",
  "\r",
  "\n",
  "### ",
  "text with no end",
  "\uFEFF",
  "é\n",
);
const document = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(""));

describe("parseKnowledgeBank from a resume point", () => {
  it("gives a file that grew the entries and warnings of parsing it whole (generated files)", () => {
    fc.assert(
      fc.property(document, document, (earlier, appended) => {
        const { whole, resumed } = both(earlier, appended);
        if (resumed !== null) expect(resumed).toEqual(whole);
      }),
      { numRuns: 3000 },
    );
  });

  it("resumes the real bank's heuristics at its last entry and gives what a whole parse gives after a learning is appended", () => {
    const appended = "\n### Heuristic: Check the retry budget first\nBefore raising a timeout, check how many retries run.\n- Observation count: 1\n";
    const { whole, from, resumed } = both(REAL, appended);
    const before = parseKnowledgeBank(REAL, OPTIONS);
    expect(from).toEqual({ offset: REAL.lastIndexOf("\n### ") + 1, line: before.entries.at(-1)!.origin.line, filePosition: before.entries.length });
    expect(resumed).toEqual(whole);
    expect(whole.entries.at(-1)!.name).toBe("Check the retry budget first");
  });

  it("does not resume past a <!-- that no --> closes (text appended later may close it), nor in a file with no entry", () => {
    expect(resumePoint("### A\nsee <!-- not closed\n### B\nbody\n", parseKnowledgeBank("### A\nsee <!-- not closed\n### B\nbody\n", OPTIONS).entries)).toBeNull();
    expect(resumePoint("# Title\nno entries\n", [])).toBeNull();
    // The comment is on the last entry's own lines: parsed again from there, it may close.
    const { from, resumed, whole } = both("### A\nbody\n### B\nsee <!-- open\n", "still -->\n### C\n");
    expect(from?.line).toBe(3);
    expect(resumed).toEqual(whole);
  });

  it("finds the same point from an earlier one (`after`) as from the start", () => {
    const earlier = `${REAL}\n### Heuristic: One\nbody\n`;
    const grown = `${earlier}\n### Heuristic: Two\nmore\n- Confidence: low\n`;
    const from = resumePoint(earlier, parseKnowledgeBank(earlier, OPTIONS).entries)!;
    const entries = parseKnowledgeBank(grown, OPTIONS).entries;
    expect(resumePoint(grown, entries, from)).toEqual(resumePoint(grown, entries));
  });
});
