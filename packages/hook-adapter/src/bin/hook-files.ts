import { statSync } from "node:fs";
import { join } from "node:path";
import type { prepareSessionInjection } from "@iflow-memory/store";
import type { PrepareInjection } from "../run-session-start-hook.js";

// The hook is three files side by side. session-start.cjs reads stdin, the cache and prints;
// the parser, ranker and YAML library live in session-start-prepare.cjs, loaded only when the
// cached injection is stale; session-start-aside.cjs runs that preparation in a worker thread
// or a background process when the memory files are large.
const PREPARE_BUNDLE = join(__dirname, "session-start-prepare.cjs");
export const ASIDE_BUNDLE = join(__dirname, "session-start-aside.cjs");

/** Works the injection out in this thread, loading the prepare bundle on first use. */
export const prepareHere: PrepareInjection = async (options) =>
  (require(PREPARE_BUNDLE) as { prepareSessionInjection: typeof prepareSessionInjection }).prepareSessionInjection(options);

/** The prepare bundle's size and time: a new build invalidates the injection cache. */
export function bundleStamp(): string {
  try {
    const info = statSync(PREPARE_BUNDLE);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return "";
  }
}
