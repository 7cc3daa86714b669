#!/usr/bin/env node
// Copies the built hooks (packages/hook-adapter/dist/*.cjs) and the MCP server
// (packages/mcp-server/dist/mcp-server.cjs) into the Claude Code plugin, which must ship them
// committed (plugins install without running a build).
// --check: exit 1 if the committed copy differs from the build, changing nothing.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// [built, committed], relative to the repository.
const FILES = [
  ...["session-start.cjs", "user-prompt-submit.cjs", "session-start-run.cjs", "user-prompt-submit-run.cjs", "session-start-prepare.cjs", "session-start-plan.cjs", "session-start-grow.cjs", "session-start-aside.cjs", "session-start-yaml.cjs"].map((file) => [`packages/hook-adapter/dist/${file}`, `plugins/iflow-memory/hooks/${file}`]),
  ["packages/mcp-server/dist/mcp-server.cjs", "plugins/iflow-memory/mcp/mcp-server.cjs"],
  // The command itself, for the skill and for users of the plugin alone: its entry, what it loads
  // for inject, and the rest of the command line in one file (bin/iflow-memory and
  // bin/iflow-memory.mjs, committed as they are, run the entry).
  ["packages/cli/dist/bin.cjs", "plugins/iflow-memory/bin/iflow-memory.cjs"],
  ...["inject.cjs", "inject-grow.cjs", "inject-yaml.cjs"].map((file) => [`packages/cli/dist/${file}`, `plugins/iflow-memory/bin/${file}`]),
  ["packages/cli/dist/standalone/run.mjs", "plugins/iflow-memory/bin/run.mjs"],
];
// The command's entry, the one file of the folder made executable (Claude Code puts the folder on
// the PATH of its Bash tool: the others are not commands).
const EXECUTABLE = "plugins/iflow-memory/bin/iflow-memory.cjs";
const check = process.argv.includes("--check");
let stale = [];
for (const [builtPath, committedPath] of FILES) {
  const built = join(root, builtPath);
  const committed = join(root, committedPath);
  if (!existsSync(built)) {
    console.error(`sync-plugin-bundle: ${built} is missing; run the build first (npx -y pnpm@10.34.8 build)`);
    process.exit(1);
  }
  if (existsSync(committed) && readFileSync(built).equals(readFileSync(committed))) continue;
  if (check) stale.push(committedPath);
  else {
    mkdirSync(dirname(committed), { recursive: true });
    copyFileSync(built, committed);
    if (committedPath === EXECUTABLE) chmodSync(committed, 0o755);
  }
}
if (stale.length > 0) {
  console.error(`sync-plugin-bundle: ${stale.join(", ")} differ from the build; run npx -y pnpm@10.34.8 plugin:sync and commit`);
  process.exit(1);
}
console.log(check ? "plugin bundle is up to date" : "plugin bundle synced");
