#!/usr/bin/env node
// The command by the name earlier versions of the plugin gave it (one ES module file then): the
// command is iflow-memory.cjs, which node starts sooner.
import { createRequire } from "node:module";

createRequire(import.meta.url)("./iflow-memory.cjs");
