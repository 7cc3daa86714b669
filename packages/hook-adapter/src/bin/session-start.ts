#!/usr/bin/env node
import { descriptorIO } from "../descriptor-io.js";
import { runSessionStartHook } from "../run-session-start-hook.js";
import { bundleStamp, prepareHere, prepareInWorker, refreshInBackground } from "./hook-files.js";

runSessionStartHook({
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
