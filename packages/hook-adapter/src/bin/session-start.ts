#!/usr/bin/env node
import { runSessionStartHook } from "../run-session-start-hook.js";
import { runBundledHook } from "./hook-files.js";

runBundledHook(runSessionStartHook);
