// The hook's third file: works an injection out where a session start need not wait for it.
// As a worker thread (workerData: the sources), it posts the injection back to the hook, which
// stops waiting at its deadline. As a process (argv: project root, global store), it caches the
// injection for the next session start; the hook starts it when its deadline ended the wait.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { plainSessionInjection } from "@iflow-memory/store";
import { refreshCachedInjection, type InjectionSources } from "../hook-runtime.js";
import { prepareHere } from "./hook-files.js";

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  // A rejection here is an uncaught error: the hook's worker sees it as its "error" event.
  // Posted as plain data: a large file's kept entries are read lazily, through getters a clone leaves out.
  void prepareHere(workerData as InjectionSources).then((injection) => port.postMessage(plainSessionInjection(injection)));
} else {
  const [projectRoot, globalStoreDir] = process.argv.slice(2);
  if (projectRoot === undefined || globalStoreDir === undefined) {
    process.stderr.write("iflow-memory: session-start-aside.cjs needs a project root and a global store folder; the hook starts it with both\n");
    process.exit(2);
  }
  refreshCachedInjection({ projectRoot, globalStoreDir, prepare: prepareHere }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}
