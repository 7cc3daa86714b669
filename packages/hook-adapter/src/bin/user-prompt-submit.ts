#!/usr/bin/env node
import { descriptorIO } from "../descriptor-io.js";
import { runUserPromptSubmitHook } from "../run-user-prompt-submit-hook.js";
import { bundleStamp, prepareHere, prepareInWorker, refreshInBackground } from "./hook-files.js";

runUserPromptSubmitHook({
  ...descriptorIO(),
  prepare: prepareHere,
  prepareAside: prepareInWorker,
  refreshInBackground,
  cacheSalt: bundleStamp(),
  env: process.env,
  cwd: process.cwd(),
}).then(
  (code) => process.exit(code),
  () => process.exit(0),
);
