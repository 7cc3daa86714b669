import { describe, expect, it } from "vitest";
import { parseKnowledgeBank } from "./parse-knowledge-bank.js";

const MB = 1024 * 1024;
const parse = (text: string) => parseKnowledgeBank(text, { category: "heuristics", scope: "local", path: "heuristics.md" });

// Many lines, each opening a comment that is never closed (a "-->" only before them).
function unclosedComments(bytes: number): string {
  const head = "<!-- a closed comment -->\n### Heuristic: First\nA lesson.\n";
  const line = "<!-- never closed, on a line of its own\n";
  return head + line.repeat(Math.ceil((bytes - head.length) / line.length));
}

// One line of backtick runs of every length, none closed (a comment elsewhere in the file).
function backtickRuns(bytes: number): string {
  const parts = ["<!-- c -->\n### Heuristic: Runs\n"];
  let size = parts[0]!.length;
  for (let length = 1; size < bytes; length++) {
    parts.push(`${"`".repeat(length)} `);
    size += length + 1;
  }
  return `${parts.join("")}\n`;
}

describe("parseKnowledgeBank (pathological input, a hang guard)", () => {
  for (const size of [1, 4]) {
    it(`parses ${size} MB of lines that each open a comment never closed, keeping them as text`, () => {
      const { entries } = parse(unclosedComments(size * MB));
      expect(entries).toHaveLength(1);
      expect(entries[0]!.description.startsWith("A lesson.\n<!-- never closed, on a line of its own\n<!-- never")).toBe(true);
    }, 10_000);

    it(`parses a ${size} MB line of backtick runs of every length, none of them closed`, () => {
      const text = backtickRuns(size * MB);
      const { entries } = parse(text);
      expect(entries.map((entry) => [entry.name, entry.description.length])).toEqual([["Runs", text.split("\n")[2]!.trim().length]]);
    }, 10_000);
  }
});
