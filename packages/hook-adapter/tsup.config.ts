import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { defineConfig, type Options } from "tsup";

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
  // with V8's code cache; session-start-prepare.cjs (parser, ranker, YAML) is loaded only when the
  // cached injection is stale, and session-start-aside.cjs runs that in a worker or a background
  // process for large files.
  {
    entry: {
      "session-start": "src/bin/session-start.ts",
      "user-prompt-submit": "src/bin/user-prompt-submit.ts",
      "session-start-run": "src/bin/session-start-run.ts",
      "user-prompt-submit-run": "src/bin/user-prompt-submit-run.ts",
      "session-start-prepare": "src/bin/session-start-prepare.ts",
      "session-start-aside": "src/bin/session-start-aside.ts",
    },
    define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version) },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    esbuildPlugins: [lazyBuiltins(["os", "module"])],
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

/**
 * Node modules loaded at their first use rather than when the bundle starts: a warm session start
 * never uses `os` (`os.homedir()` only without $HOME) or `module` (`createRequire`, for the ES
 * module build only), and loading each costs about half a millisecond. Each import becomes an
 * object with a getter per export that requires the module.
 */
function lazyBuiltins(names: string[]): NonNullable<Options["esbuildPlugins"]>[number] {
  const require = createRequire(import.meta.url);
  const filter = new RegExp(`^(?:node:)?(?:${names.join("|")})$`);
  return {
    name: "lazy-builtins",
    setup(build) {
      build.onResolve({ filter }, (args) =>
        // The getters' own require is node's.
        args.namespace === "lazy-builtin" ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" },
      );
      build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => {
        const name = JSON.stringify(args.path);
        const getters = Object.keys(require(args.path) as object)
          .filter((key) => key !== "default")
          .map((key) => `get ${JSON.stringify(key)}() { return require(${name})[${JSON.stringify(key)}]; }`);
        return { contents: `module.exports = { ${getters.join(", ")} };`, loader: "js" };
      });
    },
  };
}
