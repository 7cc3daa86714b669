import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";
import { lazyBuiltins } from "../../scripts/lazy-builtins.js";
import { moduleInOwnFile } from "../../scripts/module-in-own-file.js";
import { sideEffectFree } from "../../scripts/side-effect-free.js";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

export default defineConfig([
  // The library: imported by the CLI and other tooling.
  // Its version is part of the injection cache's fingerprint: an upgrade recomputes the cache.
  {
    entry: ["src/index.ts"],
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    target: "node20",
  },
  // The hook itself: self-contained (no node_modules, no native module) and fast to start.
  // CommonJS, because node starts a CommonJS file several milliseconds sooner than an ES module,
  // and a session start waits for it. session-start.cjs and user-prompt-submit.cjs are small
  // loaders that run session-start-run.cjs and user-prompt-submit-run.cjs (stdin, cache, output)
  // with V8's code cache; session-start-prepare.cjs (parser, ranker) is loaded only when the
  // cached injection is stale, session-start-plan.cjs (the ranker) only for a plan for new
  // signals, session-start-grow.cjs (parser, ranker) to grow the injection cached before an edit by
  // the learnings appended, and session-start-aside.cjs runs the preparation in a worker or a background process
  // for large files; session-start-yaml.cjs holds the YAML parser, required by the preparation only
  // to read a config file that no cached injection holds.
  {
    entry: {
      "session-start": "src/bin/session-start.ts",
      "user-prompt-submit": "src/bin/user-prompt-submit.ts",
      "session-start-run": "src/bin/session-start-run.ts",
      "user-prompt-submit-run": "src/bin/user-prompt-submit-run.ts",
      "session-start-prepare": "src/bin/session-start-prepare.ts",
      "session-start-plan": "src/bin/session-start-plan.ts",
      "session-start-grow": "src/bin/session-start-grow.ts",
      "session-start-aside": "src/bin/session-start-aside.ts",
      "session-start-yaml": "src/bin/session-start-yaml.ts",
    },
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    esbuildPlugins: [lazyBuiltins(["crypto", "zlib"], { functions: ["os", "module"] }), sideEffectFree(["jsonc-parser"]), moduleInOwnFile("yaml", "./session-start-yaml.cjs")],
    // Left as written, so that the plugin above sees `node:module` (descriptor-io.ts imports it)
    // before tsup's own plugin would rewrite it to a plain require.
    removeNodeProtocol: false,
    minify: true,
    splitting: false,
    sourcemap: false,
    esbuildOptions: (options) => {
      // content-hash.ts reads import.meta.url only where require is missing (an ES module).
      options.logOverride = { "empty-import-meta": "silent" };
      // import("node:child_process") as require: a dynamic import starts node's ES module loader,
      // some 6 ms of a session start that runs git (and a bundle run through vm.Script, as the
      // -run files are, could not import at all).
      options.supported = { ...options.supported, "dynamic-import": false };
    },
  },
]);
