#!/usr/bin/env node
// Built as CommonJS (dist/bin.cjs), because node starts a CommonJS file several milliseconds
// sooner than an ES module; the Claude Code plugin carries it too (bin/iflow-memory.cjs). What is
// asked most — the version, the help, `inject`, the hooks — is answered here without commander
// or any other command; everything else loads the whole command line (run.js beside it, or the
// plugin's run.mjs: the same, in one file).
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { descriptorWriter, requireWithCodeCacheFile, startInBackground } from "@iflow-memory/hook-adapter";
import { codeCacheFile, resolveGlobalStoreDir, storeCacheDir } from "@iflow-memory/store";
import { formatTopLevelHelp, TOP_LEVEL_HELP } from "./help-text.js";
import type { GrowModule } from "./inject-cache.js";
import { keepInjected, runInject, type InjectModule } from "./run-inject.js";

declare const __IFLOW_MEMORY_VERSION__: string;

const VERSION = typeof __IFLOW_MEMORY_VERSION__ === "string" ? __IFLOW_MEMORY_VERSION__ : "0.0.0-dev";
const here = __dirname;
// What inject loads when it has no saved output to print (the store, parser and ranker).
const injectBundle = join(here, "inject.cjs");
// What it loads instead to tell that learnings appended since an output was saved leave it as it is.
const growBundle = join(here, "inject-grow.cjs");
const argv = process.argv.slice(2);

// waitForStop is asked for only by a command that serves (ui): the others keep node's own Ctrl-C.
const waitForStop = () => new Promise<NodeJS.Signals>((resolve) => ["SIGINT", "SIGTERM"].forEach((signal) => process.once(signal, resolve)));
// What the fast paths print is written at once, without node's streams (however slow the reader:
// a pager); the rest gets them.
const io = { argv, stdout: descriptorWriter(1, Number.POSITIVE_INFINITY), stderr: descriptorWriter(2, Number.POSITIVE_INFINITY), env: process.env, cwd: process.cwd(), waitForStop };
let streams = false;
const withStreams = () => {
  streams = true;
  return { ...io, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
};

// The plugin's folder has no package.json to make a .js file an ES module: its run is run.mjs.
const loadRun = (): Promise<typeof import("./run.js")> => import(pathToFileURL(join(here, existsSync(join(here, "run.mjs")) ? "run.mjs" : "run.js")).href);
// inject.cjs with V8's code cache in the user's store (when there is one: the cache is no reason to
// make it), every function of it compiled there: a run after an edit keeps what a first run may
// not have. Written as the process exits, unless the keeper was started: it loads inject.cjs too,
// and writes the cache there (compiling every function took a first run some 25 ms).
const loadInject = async (): Promise<InjectModule> =>
  requireWithCodeCacheFile(injectBundle, injectCodeCache(injectBundle), require, undefined, { eager: true, writeCache: () => !keeperStarted }) as InjectModule;
const loadGrow = async (): Promise<GrowModule> => requireWithCodeCacheFile(growBundle, injectCodeCache(growBundle), require, undefined, { eager: true }) as GrowModule;
function injectCodeCache(bundle: string): string | null {
  try {
    const home = resolveGlobalStoreDir({ env: process.env });
    return existsSync(home) ? codeCacheFile(storeCacheDir(home), bundle) : null;
  } catch {
    return null;
  }
}

// The first argument of the process an inject run starts, once it has printed and saved its
// output, to keep the files it read anew (their entries and terms, for the next run and the
// hooks; `keepInjected`); the inject arguments follow it.
const KEEP_INJECTED = "--keep-injected";
let keeperStarted = false;
const keepAside = () => {
  try {
    keeperStarted = startInBackground([__filename, KEEP_INJECTED, ...argv], { cwd: io.cwd }) !== undefined;
  } catch {
    // Not started: the next run keeps what this one read, and this one writes its code cache.
  }
};

// What a saved inject output is keyed by besides its files: this version and this build of the code that works it out (and grows it).
function injectCacheSalt(): string {
  const stamp = (bundle: string) => {
    const info = statSync(bundle, { throwIfNoEntry: false });
    return info === undefined ? "" : `${info.size}:${info.mtimeMs}`;
  };
  return `${VERSION}\n${stamp(injectBundle)} ${stamp(growBundle)}`;
}

// The standalone hook bundle beside this command: in this repository's layout, or the plugin's
// (plugins/iflow-memory/bin beside plugins/iflow-memory/hooks); null when there is none.
const hookBundle = (hook: string): string | null =>
  [`../../hook-adapter/dist/${hook}.cjs`, `../hooks/${hook}.cjs`].map((path) => join(here, path)).find((path) => existsSync(path)) ?? null;

// A hook's own arguments: --mcp and --agent NAME, which the hook bundle reads by itself.
const hookArguments = (args: string[]): boolean =>
  args.every((arg, index) => arg === "--mcp" || arg === "--agent" || /^--agent=\w+$/.test(arg) || (args[index - 1] === "--agent" && /^\w+$/.test(arg)));

async function main(): Promise<number | null> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    io.stdout.write(`${VERSION}\n`);
    return null;
  }
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    // As wide as commander lays it out: the terminal's width, else 80.
    process.stdout.write(formatTopLevelHelp(TOP_LEVEL_HELP, (process.stdout.isTTY ? process.stdout.columns : undefined) ?? 80));
    return null;
  }
  // The standalone hook bundle, when it is installed beside the CLI (as in this repository and
  // the plugin): the same hook, faster to start, and reading large memory files in a worker so
  // that its deadline holds. It reads stdin and argv (--mcp, --agent), prints and exits by itself.
  const hook = argv[0] === "hook" && (argv[1] === "session-start" || argv[1] === "user-prompt-submit") && hookArguments(argv.slice(2)) ? hookBundle(argv[1]) : null;
  if (hook !== null) {
    require(hook);
    return null;
  }
  // The salt stats a file: only for inject.
  if (argv[0] === KEEP_INJECTED) return keepInjected({ ...io, argv: argv.slice(1) }, { salt: injectCacheSalt() }, loadInject);
  const injected = argv[0] === "inject" ? await runInject(io, { salt: injectCacheSalt() }, loadInject, loadGrow, keepAside) : null;
  if (injected !== null) return injected;
  return (await loadRun()).run(withStreams());
}

void main().then((code) => {
  if (code === null) return;
  // What went through the streams may still be on its way out; what did not is out already.
  if (streams) process.stdout.write("", () => process.exit(code));
  else process.exit(code);
});
