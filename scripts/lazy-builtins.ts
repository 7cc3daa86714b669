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
 *
 * A module in `names` becomes an object with a getter per export that requires the module — what
 * a namespace import (`import * as zlib`) needs to tell an export this node lacks
 * (`zlib.crc32` before Node 20.15) — which the bundle copies, getter by getter, when it starts
 * (some 19 KB of young objects for `os`). One in `options.functions`, of which only functions are
 * imported by name (`homedir`, `createRequire`), becomes a function per export that calls the
 * module's: nothing made when the bundle starts, and a name imported that is not a function there
 * fails the build.
 *
 * @example
 * esbuildPlugins: [lazyBuiltins(["crypto", "zlib"], { functions: ["os", "module"] })],
 */
export function lazyBuiltins(names: string[], options: { functions?: string[] } = {}): NonNullable<Options["esbuildPlugins"]>[number] {
  const require = createRequire(import.meta.url);
  const functions = new Set(options.functions ?? []);
  const filter = new RegExp(`^(?:node:)?(?:${[...names, ...functions].join("|")})$`);
  return {
    name: "lazy-builtins",
    setup(build) {
      build.onResolve({ filter }, (args) =>
        // The shims' own require is node's.
        args.namespace === "lazy-builtin" ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin", sideEffects: false },
      );
      build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => {
        const name = JSON.stringify(args.path);
        const exported = Object.entries(require(args.path) as Record<string, unknown>).filter(([key]) => key !== "default");
        if (functions.has(args.path)) {
          // Plain functions only (a class needs `new`): each calls the module's, required at that call.
          const wrappers = exported
            .filter(([key, value]) => typeof value === "function" && /^[a-z_$][\w$]*$/.test(key) && !/^class\b/.test(Function.prototype.toString.call(value)))
            .map(([key]) => `export function ${key}(...args) { return require(${name}).${key}(...args); }`);
          return { contents: wrappers.join("\n"), loader: "js" };
        }
        const getters = exported.map(([key]) => `get ${JSON.stringify(key)}() { return require(${name})[${JSON.stringify(key)}]; }`);
        return { contents: `module.exports = { ${getters.join(", ")} };`, loader: "js" };
      });
    },
  };
}
