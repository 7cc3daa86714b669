import { defineConfig } from "tsup";

export default defineConfig([
  // The library: imported by the CLI and other tooling.
  { entry: ["src/index.ts"], format: ["esm"], dts: true, sourcemap: true, target: "node20" },
  // The hook itself: one self-contained file (no node_modules, no native module) that starts
  // fast. CommonJS, because node starts a CommonJS file several milliseconds sooner than an ES
  // module, and a session start waits for it.
  {
    entry: { "session-start": "src/bin/session-start.ts" },
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
