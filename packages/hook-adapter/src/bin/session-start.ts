#!/usr/bin/env node
import { runSessionStartHook } from "../run-session-start-hook.js";

runSessionStartHook({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
}).then(
  (code) => process.exit(code),
  () => process.exit(0),
);
