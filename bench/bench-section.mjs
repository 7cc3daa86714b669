// Where a bench writes its figures in BENCHMARKS.md: a section of its own between two markers,
// replaced at every run. A bench run on another node (bench/on-other-nodes.mjs sets
// BENCH_NODE_SECTION, e.g. "node24") writes a section of its own for that node beside the
// machine's, its heading saying which.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const suffix = process.env.BENCH_NODE_SECTION;

/**
 * The section's markers and heading for `key` ("hook-bench") and `heading` ("Hook, end to end")
 * on the node running the bench.
 *
 * @example
 * const { start, heading, end } = benchSection("hook-bench", "Hook, end to end", "bench/hook-bench.mjs");
 */
export function benchSection(key, heading, script) {
  const name = suffix === undefined ? key : `${key} ${suffix}`;
  return {
    name,
    start: `<!-- ${name}:start (written by \`pnpm bench\`: ${script}) -->`,
    heading: suffix === undefined ? `## ${heading}` : `## ${heading}, on Node ${process.versions.node}`,
    end: `<!-- ${name}:end -->`,
  };
}

/**
 * Writes `section` (from its start marker to its end marker) into BENCHMARKS.md at `repoRoot`,
 * in place of the last run's, or at the end.
 */
export function writeBenchSection(repoRoot, name, section) {
  const path = join(repoRoot, "BENCHMARKS.md");
  let document;
  try {
    document = readFileSync(path, "utf8");
  } catch {
    document = "# Benchmarks\n\nMeasured by `pnpm bench`; ratios are against a baseline run in the same process, so they compare across machines better than milliseconds do.\n";
  }
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`<!-- ${escaped}:start[\\s\\S]*?<!-- ${escaped}:end -->`);
  writeFileSync(path, pattern.test(document) ? document.replace(pattern, () => section) : `${document.trimEnd()}\n\n${section}\n`);
}
