#!/usr/bin/env node
import { descriptorIO } from "../descriptor-io.js";
import { runSessionStartHook } from "../run-session-start-hook.js";

runSessionStartHook({ ...descriptorIO(), env: process.env, cwd: process.cwd() }).then(
  (code) => process.exit(code),
  () => process.exit(0),
);
