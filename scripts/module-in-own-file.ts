// Shared by the packages' tsup configs (loaded by tsup, never shipped).
import type { Options } from "tsup";
import { escapePattern } from "./escape-pattern.js";

/**
 * An esbuild plugin for a CommonJS bundle whose code loads a package only now and then (an
 * `import()`, which the bundle runs as a `require` at its first use): the package is left out of
 * the bundle and required from a file of its own beside it (`file`, a bundle of it built with the
 * rest). The preparation of a session start and the command's `inject` carried the YAML parser,
 * more than half of their bytes, although they read a config file only where no cache holds it:
 * every start after an edit read the parser's text, and, where a start that read a config had
 * made the file's V8 code cache, deserialized its compiled code too. A static import of the
 * package (the file's own entry) is bundled as usual.
 *
 * @example
 * esbuildPlugins: [moduleInOwnFile("yaml", "./session-start-yaml.cjs")],
 */
export function moduleInOwnFile(name: string, file: string): NonNullable<Options["esbuildPlugins"]>[number] {
  return {
    name: "module-in-own-file",
    setup(build) {
      // The import becomes a module of one line, bundled (so that the import is a require at its
      // first use, whatever the bundle's syntax allows), that requires the file; the file stays out.
      build.onResolve({ filter: new RegExp(`^${escapePattern(name)}$`) }, (args) => (args.kind === "dynamic-import" ? { path: name, namespace: "module-in-own-file" } : undefined));
      build.onLoad({ filter: /.*/, namespace: "module-in-own-file" }, () => ({ contents: `module.exports = require(${JSON.stringify(file)});`, loader: "js" }));
      build.onResolve({ filter: new RegExp(`^${escapePattern(file)}$`) }, (args) => (args.namespace === "module-in-own-file" ? { path: file, external: true } : undefined));
    },
  };
}
