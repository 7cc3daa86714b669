#!/usr/bin/env node
import { runWithCodeCache } from "./run-with-code-cache.js";

runWithCodeCache("user-prompt-submit-run.cjs");
