#!/usr/bin/env node
import { runWithCodeCache } from "./run-with-code-cache.js";

runWithCodeCache("session-start-run.cjs");
