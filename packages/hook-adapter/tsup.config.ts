import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

export default defineConfig([
  // The library: imported by the CLI and other tooling.
  { entry: ["src/index.ts"], format: ["esm"], dts: true, sourcemap: true, target: "node20" },
  // The hook itself: self-contained (no node_modules, no native module) and fast to start.
  // CommonJS, because node starts a CommonJS file several milliseconds sooner than an ES module,
  // and a session start waits for it. Two files: session-start.cjs (stdin, cache, output) loads
  // session-start-prepare.cjs (parser, ranker, YAML) only when the cached injection is stale.
  {
    entry: { "session-start": "src/bin/session-start.ts", "session-start-prepare": "src/bin/session-start-prepare.ts" },
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    minify: true,
    splitting: false,
    sourcemap: false,
    // content-hash.ts reads import.meta.url only where require is missing (an ES module).
    esbuildOptions: (options) => {
      options.logOverride = { "empty-import-meta": "silent" };
    },
  },
]);
