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

export default defineConfig([
  // The library: imported by the CLI and other tooling.
  { entry: ["src/index.ts"], format: ["esm"], dts: true, sourcemap: true, target: "node20" },
  // The hook itself: one self-contained file (no node_modules, no native module) that starts fast.
  {
    entry: { "session-start": "src/bin/session-start.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    banner,
    minify: true,
    splitting: false,
    sourcemap: false,
  },
]);
