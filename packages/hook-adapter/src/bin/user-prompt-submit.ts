#!/usr/bin/env node
import { runUserPromptSubmitHook } from "../run-user-prompt-submit-hook.js";
import { runBundledHook } from "./hook-files.js";

runBundledHook(runUserPromptSubmitHook);
