import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";
import { lazyBuiltins } from "../../scripts/lazy-builtins.js";
import { moduleInOwnFile } from "../../scripts/module-in-own-file.js";
import { sideEffectFree } from "../../scripts/side-effect-free.js";

// CommonJS dependencies bundled into ESM use require() and __filename; give them both.
const banner = {
  js: [
    'import { createRequire as __iflowCreateRequire } from "node:module";',
    'import { fileURLToPath as __iflowFileURLToPath } from "node:url";',
    "const require = __iflowCreateRequire(import.meta.url);",
    "const __filename = __iflowFileURLToPath(import.meta.url);",
  ].join(" "),
};

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

export default defineConfig([
  // The library and the whole command line (run.js), bundled with every dependency so that the
  // command installs alone; bin.js runs bin.cjs, for whoever runs the command by that name.
  {
    entry: { index: "src/index.ts", run: "src/run.ts", bin: "src/bin-module.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: { entry: "src/index.ts" },
    sourcemap: true,
    noExternal: [/.*/],
    external: ["./bin.cjs"],
    banner,
    splitting: true,
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
  },
  // The command's entry (the package's bin), CommonJS because node starts it several
  // milliseconds sooner than an ES module: the version, the help, the hooks and `inject`
  // without commander; inject.cjs (the store, parser and ranker) loaded only when inject has no
  // saved output to print, inject-grow.cjs (the parser and today's order) only to tell that
  // learnings appended since an output was saved leave it as it is, and inject-yaml.cjs (the YAML
  // parser) only when it reads a config file;
  // run.js for everything else.
  {
    entry: { bin: "src/bin.ts", inject: "src/inject-command.ts", "inject-grow": "src/inject-grow.ts", "inject-yaml": "src/inject-yaml.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    splitting: false,
    minify: true,
    sourcemap: false,
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
    // crypto and zlib at their first use: inject after an edit hashes the few entries it adds
    // without crypto, and needs zlib's CRC-32 only for a large file that grew.
    esbuildPlugins: [lazyBuiltins(["crypto", "zlib"]), sideEffectFree(["jsonc-parser"]), moduleInOwnFile("yaml", "./inject-yaml.cjs")],
    // The hook adapter reads import.meta.url only where require is missing (an ES module).
    esbuildOptions: (options) => {
      options.logOverride = { "empty-import-meta": "silent" };
    },
  },
  // The rest of the command line (run.ts) as one file, for the Claude Code plugin
  // (plugins/iflow-memory/bin), which ships no node_modules: bin.cjs, inject.cjs and
  // inject-yaml.cjs are the files above, copied beside it; bin.cjs loads it for what it does not
  // answer itself, as it loads run.js here.
  {
    entry: { run: "src/run.ts" },
    outDir: "dist/standalone",
    outExtension: () => ({ js: ".mjs" }),
    format: ["esm"],
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    banner,
    splitting: false,
    minify: true,
    sourcemap: false,
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
  },
]);
