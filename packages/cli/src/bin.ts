#!/usr/bin/env node
// The hook path skips the CLI framework entirely: it runs at every session start.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { HookIO } from "@iflow-memory/hook-adapter";

const argv = process.argv.slice(2);
// Built only where it is used: reading process.stdin opens it, and the bundle opens stdin itself.
// waitForStop is asked for only by a command that serves (ui): the others keep node's own Ctrl-C.
const waitForStop = () => new Promise<NodeJS.Signals>((resolve) => ["SIGINT", "SIGTERM"].forEach((signal) => process.once(signal, resolve)));
const cliIO = () => ({ argv, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), waitForStop });

// The standalone hook bundle beside this command: in this repository's layout, or the plugin's
// (plugins/iflow-memory/bin beside plugins/iflow-memory/hooks); null when there is none.
const hookBundle = (hook: string): string | null =>
  [`../../hook-adapter/dist/${hook}.cjs`, `../hooks/${hook}.cjs`].map((path) => fileURLToPath(new URL(path, import.meta.url))).find((path) => existsSync(path)) ?? null;

declare const __IFLOW_MEMORY_VERSION__: string;

// A hook's own arguments: --mcp and --agent NAME, which the hook bundle reads by itself.
const hookArguments = (args: string[]): boolean =>
  args.every((arg, index) => arg === "--mcp" || arg === "--agent" || /^--agent=\w+$/.test(arg) || (args[index - 1] === "--agent" && /^\w+$/.test(arg)));

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  // What a user or a script asks most often, answered without loading any command.
  process.stdout.write(`${typeof __IFLOW_MEMORY_VERSION__ === "string" ? __IFLOW_MEMORY_VERSION__ : "0.0.0-dev"}\n`);
} else if (argv.length >= 2 && argv[0] === "hook" && argv[1] === "user-prompt-submit" && hookArguments(argv.slice(2))) {
  const bundle = hookBundle("user-prompt-submit");
  if (bundle !== null) createRequire(import.meta.url)(bundle);
  else {
    const code = await (await import("./run.js")).run(cliIO());
    process.stdout.write("", () => process.exit(code));
  }
} else if (argv.length >= 2 && argv[0] === "hook" && argv[1] === "session-start" && hookArguments(argv.slice(2))) {
  // The standalone hook bundle, when it is installed beside the CLI (as in this repository and
  // the plugin): the same hook, faster to start, and reading large memory files in a worker so
  // that its deadline holds. It reads stdin and argv (--mcp, --agent), prints and exits by itself.
  // Else the hook runs here, in this thread (an unknown --agent: through the command, which says so).
  const bundle = hookBundle("session-start");
  const hookAdapter = bundle === null ? await import("@iflow-memory/hook-adapter") : null;
  const agent = hookAdapter?.agentFromArguments(argv.slice(2)) ?? null;
  if (bundle !== null) createRequire(import.meta.url)(bundle);
  else if (hookAdapter !== null && agent !== null) {
    const prepare: HookIO["prepare"] = async (options) => (await import("@iflow-memory/store")).prepareSessionInjection(options);
    const fetch = argv.includes("--mcp") ? "mcp" : "cli";
    const code = await hookAdapter.runSessionStartHook({ ...cliIO(), prepare, fetch, agent });
    process.stdout.write("", () => process.exit(code));
  } else {
    const code = await (await import("./run.js")).run(cliIO());
    process.stdout.write("", () => process.exit(code));
  }
} else {
  const code = await (await import("./run.js")).run(cliIO());
  process.stdout.write("", () => process.exit(code));
}
