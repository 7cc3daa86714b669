#!/usr/bin/env node
// Promotion speed: 100 new entries promoted into global stores of 10,000 and 50,000 entries,
// against the same 100 promoted into an empty store, interleaved in one process (medians); and
// the peak memory (RSS) of a process that does one such promotion, each in a child of its own.
// Each store was promoted into once before (one entry of another project, not timed), as a
// user's store has been: its promotion index is there. The first promotion into a store that
// was written by something else (no index yet) is measured apart, at 50,000 entries.
// Writes its section of BENCHMARKS.md (between the promote-bench markers).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hashContent } from "../packages/parser/dist/index.js";
import { promoteEntries } from "../packages/store/dist/index.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SELF = fileURLToPath(import.meta.url);

// A child's one promotion: `node promote-bench.mjs --peak-rss PROJECT STORE` prints its peak RSS in bytes.
if (process.argv[2] === "--peak-rss") {
  const result = await promoteEntries({ projectRoot: process.argv[3], globalStoreDir: process.argv[4], feature: "1", selection: { kind: "all" } });
  if (result.entries.filter((entry) => entry.action === "added").length !== 100) throw new Error("expected 100 new entries");
  // VmHWM is this process's own high-water mark; getrusage's maxRSS can carry the parent's size
  // at the fork that started it (Linux keeps it across exec).
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec((() => { try { return readFileSync("/proc/self/status", "utf8"); } catch { return ""; } })());
  console.log((hwm === null ? process.resourceUsage().maxRSS : Number(hwm[1])) * 1024);
  process.exit(0);
}

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(join(tmpdir(), "iflow-memory-promote-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

const WORDS = "cache retry schema lock token index query deploy review branch fixture budget parser hook store worktree".split(" ");
const CATEGORIES = [["anti-patterns", "Anti-Pattern", "Anti-Patterns"], ["heuristics", "Heuristic", "Heuristics"], ["patterns", "Pattern", "Patterns"]];
const text = (n, salt) => `${salt} lesson ${n}: when the ${Array.from({ length: 14 }, (_, k) => WORDS[(n * 5 + k * 3) % WORDS.length]).join(" ")} changes, check it first.`;

function project(name) {
  const root = join(work, name);
  mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
  CATEGORIES.forEach(([category, prefix], c) => {
    const entries = Array.from({ length: c === 0 ? 34 : 33 }, (_, i) => `### ${prefix}: New lesson ${c}-${i}\n${text(c * 100 + i, "new")}\n- Observation count: 2\n`);
    writeFileSync(join(root, "docs/knowledge-bank", `${category}.md`), entries.join("\n"));
  });
  return root;
}

function store(name, size) {
  const directory = join(work, name);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  if (size === 0) return directory;
  CATEGORIES.forEach(([category, prefix, title], c) => {
    let body = `# Global ${title}\n\nCross-project learnings promoted from retrospectives. Automatically managed by iflow.\nDo not edit manually — entries are updated during /finish.\n`;
    for (let i = 0; i < Math.ceil(size / 3); i++) {
      const description = text(c * 100_000 + i, "old");
      body += `\n### ${prefix}: Old lesson ${c}-${i}\n${description}\n- Content-Hash: sha256:${hashContent(description)}\n- Source: other-project, Feature #${i % 500}\n- Observation count: ${(i % 7) + 1}\n- Last observed: 2026-10-01T10:00:00Z\n- Tags: universal\n- Confidence: medium\n`;
    }
    writeFileSync(join(directory, `${category}.md`), body, { mode: 0o600 });
  });
  return directory;
}

const root = project("webshop");
const warmer = join(work, "warmer");
mkdirSync(join(warmer, "docs/knowledge-bank"), { recursive: true });
writeFileSync(join(warmer, "docs/knowledge-bank/heuristics.md"), "### Heuristic: Warm Up\nA lesson of another project, promoted before the timed promotion.\n");
// Copies of templates (template → target), made all at once and then left for longer than the
// settling time (2 s) before anything reads them, as a user's store files were written long
// before a promotion indexes them: an index made within the clock's tick of its file's last
// change (a copy made a millisecond before) cannot say that the file did not change again in
// that tick, and the next promotion would read the file to check it, which no user's promotion
// meets for a file it did not write itself.
const SETTLE_WAIT_MS = Number(process.env.BENCH_SETTLE_WAIT_MS ?? 2_100);
async function copyAll(pairs) {
  for (const [template, target] of pairs) cpSync(template, target, { recursive: true });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_WAIT_MS));
}
// A copy made by copyAll, promoted into once (the index is made), unless `cold`.
async function prepare(target, cold) {
  if (!cold) await promoteEntries({ projectRoot: warmer, globalStoreDir: target, feature: "1", selection: { kind: "all" } });
}
const SIZES = [["empty", 0], ["10k", 10_000], ["50k", 50_000]];
const templates = Object.fromEntries(SIZES.map(([key, size]) => [key, store(`template-${key}`, size)]));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const storeBytes = (template) => ["anti-patterns", "heuristics", "patterns"].reduce((sum, category) => sum + (statSync(join(template, `${category}.md`), { throwIfNoEntry: false })?.size ?? 0), 0);

async function peakRss(index, cold = false) {
  const target = join(work, `peak-${index}`);
  await prepare(target, cold);
  const bytes = Number(execFileSync(process.execPath, [SELF, "--peak-rss", root, target], { encoding: "utf8" }).trim());
  rmSync(target, { recursive: true, force: true });
  return bytes;
}

async function timeOnce(index, cold = false) {
  const target = join(work, `run-${index}`);
  await prepare(target, cold);
  const start = process.hrtime.bigint();
  const result = await promoteEntries({ projectRoot: root, globalStoreDir: target, feature: "1", selection: { kind: "all" } });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.entries.filter((entry) => entry.action === "added").length !== 100) throw new Error("expected 100 new entries");
  rmSync(target, { recursive: true, force: true });
  return elapsed;
}

const times = Object.fromEntries(SIZES.map(([key]) => [key, []]));
const runCopies = (run) => SIZES.map(([key]) => [templates[key], join(work, `run-${key}-${run}`)]);
await copyAll(runCopies("warm"));
for (const [key] of SIZES) await timeOnce(`${key}-warm`);
for (let run = 0; run < RUNS; run++) {
  await copyAll(runCopies(run));
  for (const [key] of SIZES) times[key].push(await timeOnce(`${key}-${run}`));
}
const COLD_RUNS = Math.max(3, Math.ceil(RUNS / 3));
const cold = [];
await copyAll(Array.from({ length: COLD_RUNS }, (_, run) => [templates["50k"], join(work, `run-cold-${run}`)]));
for (let run = 0; run < COLD_RUNS; run++) cold.push(await timeOnce(`cold-${run}`, true));
const PEAK_RUNS = 3;
const peakMedian = async (template, key, isCold) => {
  const peaks = [];
  await copyAll(Array.from({ length: PEAK_RUNS }, (_, run) => [template, join(work, `peak-${key}-${run}`)]));
  for (let run = 0; run < PEAK_RUNS; run++) peaks.push(await peakRss(`${key}-${run}`, isCold));
  return median(peaks);
};
const peaks = {};
for (const [key] of SIZES) peaks[key] = await peakMedian(templates[key], key, false);
peaks.cold = await peakMedian(templates["50k"], "cold", true);
const medians = Object.fromEntries(SIZES.map(([key]) => [key, median(times[key])]));
medians.cold = median(cold);
const label = (key, size) => (size === 0 ? "empty" : `${size.toLocaleString("en")} entries (${(storeBytes(templates[key]) / 1e6).toFixed(1)} MB)`);
const row = (key, text) => `| ${text} | ${medians[key].toFixed(1)} ms | ${(medians[key] / medians.empty).toFixed(2)} × | ${(peaks[key] / 1e6).toFixed(0)} MB | ${(peaks[key] / peaks.empty).toFixed(2)} × |`;
const section = [
  "<!-- promote-bench:start (written by `pnpm bench`: bench/promote-bench.mjs) -->",
  "## Promotion",
  "",
  `100 new universal entries promoted (classification, secret scan, merge, lock, all-or-nothing commit with fsync) into a store promoted into once before (its promotion index made; the store's files copied in place more than 2 s before, as a user's were written long before): the median of ${RUNS} runs, in-process and interleaved; the peak memory (RSS) of a process that loads the store package and does one promotion (median of ${PEAK_RUNS} processes). The last row is the first promotion into a store that something else wrote (no index yet: every file parsed whole, the index made), median of ${COLD_RUNS} runs after the others.`,
  "",
  "| store before | median | ratio to the empty store | peak RSS | ratio to the empty store |",
  "|---|---|---|---|---|",
  ...SIZES.map(([key, size]) => row(key, label(key, size))),
  row("cold", `${label("50k", 50_000)}, first promotion (no index)`),
  "<!-- promote-bench:end -->",
].join("\n");
console.log(section);
const path = join(REPO_ROOT, "BENCHMARKS.md");
let document = readFileSync(path, "utf8");
const pattern = /<!-- promote-bench:start[\s\S]*?<!-- promote-bench:end -->/;
document = pattern.test(document) ? document.replace(pattern, section) : `${document.trimEnd()}\n\n${section}\n`;
writeFileSync(path, document);
