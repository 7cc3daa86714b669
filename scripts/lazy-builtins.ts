// Shared by the packages' tsup configs (loaded by tsup, never shipped).
import { createRequire } from "node:module";
import type { Options } from "tsup";

/**
 * An esbuild plugin for the CommonJS bundles of the hooks and the command: the node modules named
 * are loaded at their first use rather than when the bundle starts. A warm session start never
 * uses `os` (`os.homedir()` only without $HOME) or `module` (`createRequire`, for the ES module
 * build only), and loading each costs about half a millisecond; a start after an edit rarely uses
 * `crypto` (content hashes of a few entries are worked out without it), which costs 3 to 4 ms, or
 * `zlib` (the CRC-32 of a large memory file that grew, some 1.5 ms to load).
 * Each import becomes an object with a getter per export that requires the module.
 *
 * @example
 * esbuildPlugins: [lazyBuiltins(["os", "module", "crypto"])],
 */
export function lazyBuiltins(names: string[]): NonNullable<Options["esbuildPlugins"]>[number] {
  const require = createRequire(import.meta.url);
  const filter = new RegExp(`^(?:node:)?(?:${names.join("|")})$`);
  return {
    name: "lazy-builtins",
    setup(build) {
      build.onResolve({ filter }, (args) =>
        // The getters' own require is node's.
        args.namespace === "lazy-builtin" ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin", sideEffects: false },
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
