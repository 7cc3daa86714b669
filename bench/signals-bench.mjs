#!/usr/bin/env node
// The cost of gathering the session-start signals (`gatherSessionSignals`), as a session start pays
// it: a fresh `node` process that loads the signals code bundled as the hook bundles it (CommonJS,
// minified) and gathers them, against `node -e 0` run just before, pair by pair, so that machine
// load cancels out. Scenarios: a small repository on a branch, and (BENCH_LARGE=1) one of 100,000
// committed files, made in a tmpfs when there is one. Prints a table; writes nothing in the repository.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const require = createRequire(import.meta.url);
const esbuild = createRequire(require.resolve("tsup"))("esbuild");

const work = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "iflow-memory-signals-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

const bundle = join(work, "signals.cjs");
esbuild.buildSync({
  entryPoints: [join(REPO_ROOT, "packages/store/src/signals/index.ts")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: true,
  outfile: bundle,
  logLevel: "error",
});
const runner = join(work, "runner.cjs");
writeFileSync(
  runner,
  `const started = performance.now();
const { gatherSessionSignals } = require(${JSON.stringify(bundle)});
gatherSessionSignals({ projectRoot: process.argv[2], timeoutMs: Number(process.argv[3] ?? 200) }).then((signals) => {
  if (process.env.SHOW === "1") console.log(JSON.stringify({ ms: performance.now() - started, ...signals }));
});
`,
);

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.com" };
const git = (cwd, ...args) => execFileSync("git", ["-c", "commit.gpgsign=false", ...args], { cwd, env: gitEnv, stdio: "ignore" });
const write = (root, files) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
};

function smallRepository() {
  const root = join(work, "semantic-memory");
  mkdirSync(root);
  git(root, "init", "-q", "-b", "main");
  const files = { "pyproject.toml": '[project]\nname = "semantic-memory"\ndependencies = ["httpx", "tenacity", "numpy"]\n' };
  for (let index = 0; index < 60; index += 1) files[`semantic_memory/module${index}.py`] = `# module ${index}\n`;
  files["docs/features/034-semantic-memory-retries/spec.md"] = "# Spec: Retries for embedding calls\n\nEmbedding calls hang when the provider stalls.\n";
  write(root, files);
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "Initial layout");
  git(root, "checkout", "-q", "-b", "feature/034-semantic-memory-retries");
  write(root, { "semantic_memory/retry.py": "retry\n" });
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "Retry embedding calls");
  write(root, { "semantic_memory/module3.py": "changed\n", "notes.md": "untracked\n" });
  git(root, "status"); // the index's stat data refreshed, as a user's shell leaves it
  return root;
}

function largeRepository() {
  const root = join(work, "huge");
  mkdirSync(root);
  git(root, "init", "-q", "-b", "main");
  execFileSync(process.execPath, ["-e", `const fs = require("node:fs"); for (let d = 0; d < 400; d += 1) { fs.mkdirSync("src/m" + d, { recursive: true }); for (let f = 0; f < 250; f += 1) fs.writeFileSync("src/m" + d + "/f" + f + ".txt", "x\\n"); }`], { cwd: root });
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "One hundred thousand files");
  git(root, "checkout", "-q", "-b", "fix/embedding-call-timeouts");
  write(root, { "src/m7/f7.txt": "committed\n" });
  git(root, "commit", "-q", "-am", "Time out embedding calls");
  write(root, { "src/m3/f3.txt": "working\n" });
  git(root, "status");
  return root;
}

function time(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const scenarios = [{ name: "small repository, on a feature branch", root: smallRepository(), timeoutMs: 200 }];
if (process.env.BENCH_LARGE === "1") {
  const root = largeRepository();
  scenarios.push({ name: "100,000 files, default budget (200 ms)", root, timeoutMs: 200 }, { name: "100,000 files, unbounded (60 s)", root, timeoutMs: 60_000 });
}

console.log(`gatherSessionSignals in a fresh node process, median of ${RUNS} runs, paired with \`node -e 0\`\n`);
console.log("| scenario | node -e 0 | with the signals | ratio | call alone (in-process) | skipped |");
console.log("|---|---|---|---|---|---|");
for (const scenario of scenarios) {
  const base = [];
  const signals = [];
  const ratios = [];
  for (let run = 0; run < RUNS; run += 1) {
    const a = time(["-e", "0"]);
    const b = time([runner, scenario.root, String(scenario.timeoutMs)]);
    base.push(a);
    signals.push(b);
    ratios.push(b / a);
  }
  const inProcess = [];
  let last;
  for (let run = 0; run < Math.min(RUNS, 9); run += 1) {
    last = JSON.parse(execFileSync(process.execPath, [runner, scenario.root, String(scenario.timeoutMs)], { env: { ...process.env, SHOW: "1" }, encoding: "utf8" }));
    inProcess.push(last.ms);
  }
  console.log(
    `| ${scenario.name} | ${median(base).toFixed(1)} ms | ${median(signals).toFixed(1)} ms | ${median(ratios).toFixed(2)} × | ${median(inProcess).toFixed(1)} ms | ${last.skipped.join("; ") || "—"} |`,
  );
  if (process.env.BENCH_SHOW === "1") console.log(JSON.stringify(last, null, 1));
}
