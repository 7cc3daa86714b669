#!/usr/bin/env node
// The MCP server's speed as a client sees it: the built bundle started over stdio by the SDK's
// own client. `initialize` is the time from spawning the server to its answer (paired with a
// `node -e 0` run, like the hooks); the first `search_memory` of a server, with the session-start
// hook's cache in the store (the usual case) and without it; then the round trip of a search on a
// warm server, median over real-sounding queries; memory is the server's resident set after the
// first search and after the warm ones. Writes its section of BENCHMARKS.md.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { realCopies } from "./real-copies.mjs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPORA = resolve(REPO_ROOT, "test/fixtures/corpora");
const SERVER = join(REPO_ROOT, "packages/mcp-server/dist/mcp-server.cjs");
const STARTS = Number(process.env.BENCH_RUNS ?? 15);
const SEARCH_ROUNDS = 5;

// What agents ask mid-session: errors, design questions, tasks (none of them a label of the eval set).
const QUERIES = [
  "the embedding call times out and we retry it",
  "where should diagnostics be emitted for a retried helper",
  "tests pass locally but the migration fails in CI",
  "how many tasks should one file change be split into",
  "hook cannot find files when Claude runs from a subdirectory",
  "reviewer keeps flagging the same issue in every iteration",
  "rename a module and update every reference",
  "changing a default parameter value",
  "MCP tool response gains a new field and tests break",
  "plan the order of implementation phases",
  "SQLite full text search query syntax error",
  "center a div with CSS grid",
];

const work = mkdtempSync(join(tmpdir(), "iflow-memory-mcp-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

function project(name, fill) {
  const root = join(work, name);
  mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
  mkdirSync(join(root, ".git"));
  fill(join(root, "docs/knowledge-bank"));
  const store = join(work, `${name}-store`);
  mkdirSync(store);
  return { root, store };
}

const scenarios = [
  { name: "real bank (265 entries) + global-store example (18)", ...project("real", (directory) => cpSync(join(CORPORA, "iflow-kb-2026-04/docs/knowledge-bank"), directory, { recursive: true })), budget: "—" },
  { name: "5,000 entries (copies of the real bank's)", ...project("c5000", realCopies(5_000)), budget: "≤ 150 ms; ≤ 20 ms" },
  { name: "50,000 entries (copies of the real bank's)", ...project("c50000", realCopies(50_000)), budget: "≤ 600 ms; ≤ 100 ms" },
];
// The real bank's scenario has the global-store example beside it (a copy: nothing writes into the fixtures).
cpSync(join(CORPORA, "global-store-example"), scenarios[0].store, { recursive: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const now = () => Number(process.hrtime.bigint()) / 1e6;

async function start(scenario) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, "--project-root", scenario.root, "--global-store", scenario.store], env: { PATH: process.env.PATH ?? "", HOME: work } });
  const client = new Client({ name: "mcp-bench", version: "1.0.0" });
  const begin = now();
  await client.connect(transport);
  return { client, transport, initialize: now() - begin };
}

async function search(client, query) {
  const begin = now();
  const answer = await client.callTool({ name: "search_memory", arguments: { query } });
  const elapsed = now() - begin;
  if (answer.isError) throw new Error(`search_memory failed: ${answer.content[0]?.text}`);
  return { elapsed, results: answer.structuredContent.results.length };
}

const HOOK = join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs");
const residentMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const removeCache = (scenario) => rmSync(join(scenario.store, ".cache"), { recursive: true, force: true });
// The session-start hook as Claude Code runs it at the start of a session in the project: it leaves its cache in the store.
function runSessionStartHook(scenario) {
  const hook = spawnSync(process.execPath, [HOOK], {
    env: { PATH: process.env.PATH ?? "", HOME: work, IFLOW_MEMORY_HOME: scenario.store, IFLOW_MEMORY_HOOK_DEADLINE_MS: "60000" },
    input: JSON.stringify({ cwd: scenario.root, source: "startup" }),
  });
  // The ranking's cache is written by the background process the hook starts: until it releases its claim.
  const cached = () => {
    const names = readdirSync(join(scenario.store, ".cache"));
    return names.some((name) => name.endsWith(".ranking.json")) && !names.some((name) => name.endsWith(".refreshing"));
  };
  for (let waited = 0; !cached() && waited < 60_000; waited += 20) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  if (!cached()) throw new Error(`the hook left no cache: ${hook.stderr}`);
}
// The hooks' cache is kept only for files that settled (unchanged for two seconds): as a user's are.
await new Promise((resolve) => setTimeout(resolve, 2_100));

const rows = [];
const baselines = [];
for (const scenario of scenarios) {
  const initialize = [];
  const ratios = [];
  for (let run = 0; run < STARTS; run++) {
    const begin = now();
    spawnSync(process.execPath, ["-e", "0"], { env: { PATH: process.env.PATH ?? "" } });
    const base = now() - begin;
    baselines.push(base);
    const server = await start(scenario);
    initialize.push(server.initialize);
    ratios.push(server.initialize / base);
    await server.client.close();
  }
  // No cache: the server reads and indexes the files itself (and caches them once it has answered).
  removeCache(scenario);
  const uncached = await start(scenario);
  const cold = await search(uncached.client, QUERIES[0]);
  const coldRss = residentMb(uncached.transport.pid);
  await uncached.client.close();
  // The usual case: the session-start hook ran first and left its cache.
  removeCache(scenario);
  runSessionStartHook(scenario);
  const server = await start(scenario);
  const first = await search(server.client, QUERIES[0]);
  const firstRss = residentMb(server.transport.pid);
  const times = [];
  let found = 0;
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const query of QUERIES) {
      const result = await search(server.client, query);
      times.push(result.elapsed);
      if (round === 0) found += result.results;
    }
  }
  const rss = residentMb(server.transport.pid);
  await server.client.close();
  rows.push(
    `| ${scenario.name} | ${median(initialize).toFixed(1)} ms (${median(ratios).toFixed(2)} ×) | ${first.elapsed.toFixed(1)} ms, ${firstRss.toFixed(0)} MB | ${cold.elapsed.toFixed(1)} ms, ${coldRss.toFixed(0)} MB | ${median(times).toFixed(1)} ms | ${Math.max(...times).toFixed(1)} ms | ${(found / QUERIES.length).toFixed(1)} | ${rss.toFixed(0)} MB | ≤ 300 ms; ${scenario.budget} |`,
  );
  console.log(rows.at(-1));
}

const section = [
  "<!-- mcp-bench:start (written by `pnpm bench`: bench/mcp-bench.mjs) -->",
  "## MCP server",
  "",
  `The bundle (\`packages/mcp-server/dist/mcp-server.cjs\`) started over stdio by the SDK's own client, as Claude Code starts it. *initialize*: from spawning the server to its \`initialize\` answer, median of ${STARTS} starts, each paired with a \`node -e 0\` run (ratio = median of the pairs' ratios). *First search, hooks' cache*: the first search of a server started after the session-start hook ran in the project (the usual case: a session starts with the hook, and the agent searches later), which reads the index and the ranked fields from the hook's cache and the text of the results only; with the server's resident set after it. *First search, no cache*: the same with the store's \`.cache\` removed first, so that the server reads and indexes the files itself (as every first search did before the cache was shared); it writes the cache once it has answered. *Warm search* (on the server started with the hooks' cache): the round trip of \`search_memory\` once the index is built, median and slowest of ${SEARCH_ROUNDS} rounds of ${QUERIES.length} queries (errors, design questions, one about CSS the bank knows nothing of); results = mean results per query, at most the 10 asked for (search lists every entry holding a word of the query). *Memory*: the server's resident set after the warm searches.`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; \`node -e 0\`: ${median(baselines).toFixed(1)} ms.`,
  "",
  "| store | initialize (ratio to `node -e 0`) | first search, hooks' cache; memory | first search, no cache; memory | warm search (median) | warm search (slowest) | results | memory | budget (initialize; first search; warm search) |",
  "|---|---|---|---|---|---|---|---|---|",
  ...rows,
  "<!-- mcp-bench:end -->",
].join("\n");

const path = join(REPO_ROOT, "BENCHMARKS.md");
let document = readFileSync(path, "utf8");
const pattern = /<!-- mcp-bench:start[\s\S]*?<!-- mcp-bench:end -->/;
document = pattern.test(document) ? document.replace(pattern, section) : `${document.trimEnd()}\n\n${section}\n`;
writeFileSync(path, document);
console.log(section);
