#!/usr/bin/env node
import { statSync } from "node:fs";
import { join } from "node:path";
import type { prepareSessionInjection } from "@iflow-memory/store";
import { descriptorIO } from "../descriptor-io.js";
import { runSessionStartHook } from "../run-session-start-hook.js";

// The parser, ranker and YAML library live in a second file, loaded only when the cached
// injection is stale: most session starts never load them.
const PREPARE_BUNDLE = join(__dirname, "session-start-prepare.cjs");

runSessionStartHook({
  ...descriptorIO(),
  prepare: async (options) => (require(PREPARE_BUNDLE) as { prepareSessionInjection: typeof prepareSessionInjection }).prepareSessionInjection(options),
  cacheSalt: bundleStamp(),
  env: process.env,
  cwd: process.cwd(),
}).then(
  (code) => process.exit(code),
  () => process.exit(0),
);

function bundleStamp(): string {
  try {
    const info = statSync(PREPARE_BUNDLE);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return "";
  }
}
