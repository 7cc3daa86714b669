#!/usr/bin/env node
import type { SessionInjection } from "@iflow-memory/store";
import { descriptorIO } from "../descriptor-io.js";
import { runSessionStartHook, type InjectionSources } from "../run-session-start-hook.js";
import { ASIDE_BUNDLE, bundleStamp, prepareHere } from "./hook-files.js";

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

// worker_threads and child_process are loaded only here: most session starts need neither.
function prepareInWorker(sources: InjectionSources): Promise<SessionInjection> {
  const { Worker } = require("node:worker_threads") as typeof import("node:worker_threads");
  return new Promise((resolve, reject) => {
    const worker = new Worker(ASIDE_BUNDLE, { workerData: sources });
    worker.once("message", (injection: SessionInjection) => resolve(injection));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the worker reading the memory files stopped with exit code ${code}`)));
  });
}

// Detached and holding none of the hook's stdio: whatever waits for the hook (its exit, or its
// output closing) does not wait for this process, which caches the injection for the next start.
function refreshInBackground(sources: InjectionSources): void {
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
  const child = spawn(process.execPath, [ASIDE_BUNDLE, sources.projectRoot, sources.globalStoreDir], { detached: true, stdio: "ignore", windowsHide: true });
  child.on("error", () => undefined);
  child.unref();
}
