#!/usr/bin/env node
// The hook path skips the CLI framework entirely: it runs at every session start.
import type { HookIO } from "@iflow-memory/hook-adapter";

const argv = process.argv.slice(2);
const io = { argv, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
const prepare: HookIO["prepare"] = async (options) => (await import("@iflow-memory/store")).prepareSessionInjection(options);
const code =
  argv.length === 2 && argv[0] === "hook" && argv[1] === "session-start"
    ? await (await import("@iflow-memory/hook-adapter")).runSessionStartHook({ ...io, prepare })
    : await (await import("./run.js")).run(io);
process.stdout.write("", () => process.exit(code));
