import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

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
  // Bundled with every dependency so that the command starts fast and installs alone; the bin
  // loads the hook without loading the CLI framework.
  {
    entry: ["src/bin.ts", "src/index.ts"],
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: { entry: "src/index.ts" },
    sourcemap: true,
    noExternal: [/.*/],
    banner,
    splitting: true,
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
  },
  // The command as one file, for the Claude Code plugin (plugins/iflow-memory/bin), which ships
  // no node_modules: `node "${CLAUDE_PLUGIN_ROOT}/bin/iflow-memory.mjs" …`.
  {
    entry: { "iflow-memory": "src/bin.ts" },
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
