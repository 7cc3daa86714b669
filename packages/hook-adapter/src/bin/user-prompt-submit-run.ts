// The UserPromptSubmit hook itself, run by user-prompt-submit.cjs with V8's code cache (run-with-code-cache.ts).
import { runUserPromptSubmitHook } from "../run-user-prompt-submit-hook.js";
import { runBundledHook } from "./hook-files.js";

runBundledHook(runUserPromptSubmitHook);
