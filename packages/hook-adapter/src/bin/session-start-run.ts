// The SessionStart hook itself, run by session-start.cjs with V8's code cache (run-with-code-cache.ts).
import { runSessionStartHookWith } from "../run-session-start-hook.js";
import { planHere, runBundledHook } from "./hook-files.js";

runBundledHook((io) => runSessionStartHookWith(io, planHere));
