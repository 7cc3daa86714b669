#!/usr/bin/env node
// Runs bench scripts again on the Node versions users run beside the machine's own (Node 20 is
// past its end of life; users run 22 and 24): the nodes `pnpm install` puts in
// packages/test-utils (its optionalDependencies, the ones the hook's tests run on). Each script
// runs whole on that node — the hooks, the commands and `node -e 0` alike — and writes a section
// of its own for it (bench-section.mjs). BENCH_NODES picks the majors (default 24).
//
//   node bench/on-other-nodes.mjs bench/hook-bench.mjs bench/cli-bench.mjs
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scripts = process.argv.slice(2);
const majors = (process.env.BENCH_NODES ?? "24").split(",").map((major) => major.trim()).filter((major) => major !== "");
if (scripts.length === 0 || majors.some((major) => !/^\d+$/.test(major))) {
  console.error("on-other-nodes: give the bench scripts to run, and BENCH_NODES as majors (24, or 22,24); nothing run");
  process.exit(2);
}

for (const major of majors) {
  const node = join(REPO_ROOT, "packages/test-utils/node_modules", `node${major}-${process.platform}-${process.arch}`, "bin/node");
  if (!existsSync(node)) {
    console.error(`on-other-nodes: Node ${major} is not installed (no ${node}; \`pnpm install\` installs Node 22 and 24 there on linux-x64 and linux-arm64); its sections were not measured`);
    process.exitCode = 1;
    continue;
  }
  for (const script of scripts) {
    const run = spawnSync(node, [resolve(REPO_ROOT, script)], { stdio: "inherit", env: { ...process.env, BENCH_NODE_SECTION: `node${major}` } });
    if (run.status !== 0) {
      console.error(`on-other-nodes: ${script} on Node ${major} failed (exit ${run.status ?? run.signal}); its section was not written`);
      process.exit(1);
    }
  }
}
