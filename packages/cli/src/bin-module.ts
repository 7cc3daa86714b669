#!/usr/bin/env node
// dist/bin.js, for whoever runs the command by that name (hooks registered by earlier versions,
// scripts): the command itself is bin.cjs, which node starts sooner.
import { createRequire } from "node:module";

createRequire(import.meta.url)("./bin.cjs");
