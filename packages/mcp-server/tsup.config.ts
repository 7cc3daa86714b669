import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";
import { sideEffectFree } from "../../scripts/side-effect-free.js";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

export default defineConfig([
  // The library: imported by the CLI (`iflow-memory mcp`) and other tooling.
  {
    entry: ["src/index.ts"],
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    target: "node20",
  },
  // The server as one self-contained file (the SDK and zod included, no node_modules, no native
  // module): what the Claude Code plugin ships and runs.
  {
    entry: { "mcp-server": "src/bin/mcp-server.ts" },
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    // jsonc-parser (the store's, for setup) is no part of the server: none of its code in it.
    esbuildPlugins: [sideEffectFree(["jsonc-parser"])],
    minify: true,
    splitting: false,
    sourcemap: false,
    esbuildOptions: (options) => {
      options.logOverride = { "empty-import-meta": "silent" };
    },
  },
]);
