#!/usr/bin/env node
// The viewer's first page as a user gets it: `iflow-memory ui` spawned on a bank of 5,000 entries,
// then the printed address fetched over HTTP (the token's redirect, then the memory page with its
// cookie), timed from the spawn; no browser. Twice: with the hooks' cache in the store (the usual
// case: a session started in the project before) and without it (the viewer reads and indexes the
// files itself, and leaves the cache for the next reader). Writes its section of BENCHMARKS.md.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { realCopies } from "./real-copies.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(REPO_ROOT, "packages/cli/dist/bin.js");
const HOOK = join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs");
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ENTRIES = 5_000;

const work = mkdtempSync(join(tmpdir(), "iflow-memory-viewer-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const root = join(work, "project");
const store = join(work, "store");
mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
mkdirSync(join(root, ".git"));
mkdirSync(store, { mode: 0o700 });
realCopies(ENTRIES)(join(root, "docs/knowledge-bank"));
const env = { PATH: process.env.PATH ?? "", HOME: work, IFLOW_MEMORY_HOME: store };

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function get(port, path, headers) {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, body }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** One start: spawn → address printed → the first page's body, and the viewer's resident set then. */
async function firstPage() {
  const begin = now();
  const child = spawn(process.execPath, [CLI, "ui", "--project-root", root, "--global-store", store], { env, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve(new URL(text.slice(0, text.indexOf("\n"))));
    });
    child.on("exit", (code) => reject(new Error(`ui exited with ${code} before printing its address`)));
  });
  const listening = now() - begin;
  const redirect = await get(url.port, `${url.pathname}${url.search}`, {});
  const cookie = String(redirect.headers["set-cookie"]).split(";")[0];
  const page = await get(url.port, redirect.headers.location ?? "/", { cookie });
  const elapsed = now() - begin;
  if (page.status !== 200 || !/ of \d+ entries, in injection order/.test(page.body)) throw new Error(`the first page was not the memory list (${page.status})`);
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  await new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
  return { listening, elapsed, rss };
}

const removeCache = () => rmSync(join(store, ".cache"), { recursive: true, force: true });
// The hooks' cache is kept only for files that settled (older than two seconds).
await new Promise((resolve) => setTimeout(resolve, 2_100));

// A session started in the project; then the background process it may start (writing the ranking's cache) is waited for.
function startSession() {
  spawnSync(process.execPath, [HOOK], { env, input: JSON.stringify({ cwd: root, source: "startup" }) });
  const claimed = () => existsSync(join(store, ".cache")) && readdirSync(join(store, ".cache")).some((name) => name.endsWith(".refreshing"));
  for (let waited = 0; claimed() && waited < 60_000; waited += 20) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}

const baselines = [];
const cases = [
  { name: `${ENTRIES.toLocaleString("en")} entries, the hooks' cache present (a session started in the project first)`, before: startSession },
  { name: `${ENTRIES.toLocaleString("en")} entries, no cache (the unfiltered first page parses the files in both cases; searches would index them)`, before: removeCache },
];
const rows = [];
for (const item of cases) {
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const begin = now();
    spawnSync(process.execPath, ["-e", "0"], { env });
    baselines.push(now() - begin);
    item.before();
    runs.push(await firstPage());
  }
  rows.push(
    `| ${item.name} | ${median(runs.map((run) => run.listening)).toFixed(0)} ms | ${median(runs.map((run) => run.elapsed)).toFixed(0)} ms (${runs.map((run) => run.elapsed.toFixed(0)).join(", ")}) | ${median(runs.map((run) => run.rss)).toFixed(0)} MB | ≤ 500 ms |`,
  );
  console.log(rows.at(-1));
}

const section = [
  "<!-- viewer-start-bench:start (written by `pnpm bench`: bench/viewer-bench.mjs) -->",
  "## Viewer: the first page after start",
  "",
  `\`iflow-memory ui\` spawned on a bank of ${ENTRIES.toLocaleString("en")} entries (copies of the real bank's), then its printed address fetched over HTTP as a browser would (the token's redirect, then the memory page with its cookie: 50 entries, the filters' options built from all of them); no browser. *Listening*: from the spawn to the address on stdout. *First page*: from the spawn to the page's last byte, median of ${RUNS} starts (each start listed). *Memory*: the viewer's resident set after the page.`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; \`node -e 0\`: ${median(baselines).toFixed(1)} ms.`,
  "",
  "| store | listening | first page (each start) | memory | budget |",
  "|---|---|---|---|---|",
  ...rows,
  "<!-- viewer-start-bench:end -->",
].join("\n");

const path = join(REPO_ROOT, "BENCHMARKS.md");
let document = readFileSync(path, "utf8");
const pattern = /<!-- viewer-start-bench:start[\s\S]*?<!-- viewer-start-bench:end -->/;
document = pattern.test(document) ? document.replace(pattern, section) : document.replace(/(<!-- viewer-bench:end -->)/, `$1\n\n${section}`);
writeFileSync(path, document);
console.log(section);
