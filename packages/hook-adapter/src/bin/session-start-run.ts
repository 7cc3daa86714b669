// The SessionStart hook itself, run by session-start.cjs with V8's code cache (run-with-code-cache.ts).
import { runSessionStartHook } from "../run-session-start-hook.js";
import { runBundledHook } from "./hook-files.js";

runBundledHook(runSessionStartHook);
