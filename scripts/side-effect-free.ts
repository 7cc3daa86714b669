// Shared by the packages' tsup configs (loaded by tsup, never shipped).
import type { Options } from "tsup";
import { escapePattern } from "./escape-pattern.js";

/**
 * An esbuild plugin for the bundles: every file of the packages named is taken for free of side
 * effects, so that a bundle that uses none of their exports holds none of their code. The store
 * imports jsonc-parser (for `setup gemini`), whose modules run code at their top (its enums, its
 * tables of spaces): without this, each hook's bundle, its loader included, carried and ran 3.7
 * KB of it at every session start.
 *
 * @example
 * esbuildPlugins: [sideEffectFree(["jsonc-parser"])],
 */
export function sideEffectFree(names: string[]): NonNullable<Options["esbuildPlugins"]>[number] {
  // The names as they read in a pattern (a scoped name's "/" and "." escaped).
  const alternatives = names.map(escapePattern).join("|");
  const inPackage = new RegExp(`[\\\\/]node_modules[\\\\/](?:${alternatives})[\\\\/]`);
  const named = new RegExp(`^(?:${alternatives})(?:/|$)|^\\.\\.?/`);
  return {
    name: "side-effect-free",
    setup(build) {
      build.onResolve({ filter: named }, async (args) => {
        // The file the name or path resolves to, as esbuild resolves it (this plugin skipped).
        if ((args.pluginData as { sideEffectFree?: boolean } | undefined)?.sideEffectFree === true) return undefined;
        if (args.path.startsWith(".") && !inPackage.test(args.importer)) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { sideEffectFree: true } });
        if (resolved.errors.length > 0 || !inPackage.test(resolved.path)) return undefined;
        return { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
      });
    },
  };
}
