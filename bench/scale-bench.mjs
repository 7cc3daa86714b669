// Parse time of the two inputs that were quadratic (many lines each opening a comment never
// closed; one line of backtick runs of every length) at 1 to 16 MB, and the time to read banks
// of 150,000 and 600,000 entries: node bench/scale-bench.mjs (after a build). Medians of 5 runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseKnowledgeBank } from "../packages/parser/dist/index.js";
import { readKnowledgeBank } from "../packages/store/dist/index.js";

const MB = 1024 * 1024;

function unclosedComments(bytes) {
  const head = "<!-- a closed comment -->\n### Heuristic: First\nA lesson.\n";
  const line = "<!-- never closed, on a line of its own\n";
  return head + line.repeat(Math.ceil((bytes - head.length) / line.length));
}

function backtickRuns(bytes) {
  const parts = ["<!-- c -->\n### Heuristic: Runs\n"];
  let size = parts[0].length;
  for (let length = 1; size < bytes; length++) {
    parts.push(`${"`".repeat(length)} `);
    size += length + 1;
  }
  return `${parts.join("")}\n`;
}

async function median(run) {
  const times = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[2];
}

console.log("| input | size | median |\n|---|---|---|");
for (const [name, make] of [["lines opening a comment never closed", unclosedComments], ["one line of backtick runs of every length", backtickRuns]]) {
  for (const size of [1, 4, 16]) {
    const text = make(size * MB);
    const ms = await median(() => parseKnowledgeBank(text, { category: "heuristics", scope: "local", path: "heuristics.md" }));
    console.log(`| ${name} | ${size} MB | ${ms.toFixed(0)} ms |`);
  }
}
const base = mkdtempSync(join(tmpdir(), "iflow-memory-scale-"));
try {
  for (const count of [150_000, 600_000]) {
    const root = join(base, String(count));
    mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
    const text = Array.from({ length: count }, (_, index) => `### Heuristic: Entry ${index}\nLesson number ${index} about topic ${index % 97}.\n- Observation count: ${1 + (index % 5)}\n`).join("\n");
    writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), text);
    const ms = await median(() => readKnowledgeBank(root));
    console.log(`| a bank of ${count.toLocaleString("en")} entries, read and redacted | ${(text.length / MB).toFixed(1)} MB | ${ms.toFixed(0)} ms |`);
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
