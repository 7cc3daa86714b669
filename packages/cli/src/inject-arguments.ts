import { parseArgs } from "node:util";
import type { InjectOptions } from "./inject-command.js";
import { wholeNumber } from "./whole-number.js";

// `inject`'s options as run.ts declares them to commander. --index takes an optional value,
// which parseArgs has no type for: a flag here, its value the positional right after it.
const OPTIONS = {
  "project-root": { type: "string" },
  limit: { type: "string" },
  "global-store": { type: "string" },
  "max-chars": { type: "string" },
  "no-tracking": { type: "boolean" },
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  query: { type: "string" },
  index: { type: "boolean" },
  "ignore-config": { type: "boolean" },
} as const;

/**
 * The options of `iflow-memory inject ARGS` as commander would give them to the command, read
 * without loading commander (node's `util.parseArgs`); null for anything this reading is not
 * sure to read as commander does — an unknown or repeated option, a value that starts with a
 * dash, a bad number, `--help`, `--debug`, `--` — which the full command line then reads, and
 * reports as it always has. inject-arguments.test.ts checks that whatever this accepts,
 * commander accepts with the same options.
 *
 * @example
 * parseInjectArguments(["--limit", "5", "--no-tracking"]); // { tracking: false, limit: 5 }
 * parseInjectArguments(["--limit", "five"]); // null
 */
export function parseInjectArguments(args: string[]): InjectOptions | null {
  let tokens;
  try {
    ({ tokens } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true, tokens: true }));
  } catch {
    return null;
  }
  const options: InjectOptions = { tracking: true };
  const seen = new Set<string>();
  let bareIndexAt: number | null = null;
  for (const token of tokens) {
    if (token.kind === "option-terminator") return null;
    if (token.kind === "positional") {
      // Only --index's value, right after it: commander takes it as the value when it is a word.
      if (bareIndexAt === null || token.index !== bareIndexAt + 1 || (token.value !== "cli" && token.value !== "mcp")) return null;
      options.index = token.value;
      bareIndexAt = null;
      continue;
    }
    if (seen.has(token.name) || !token.rawName.startsWith("--")) return null;
    seen.add(token.name);
    const value = token.value ?? "";
    switch (token.name) {
      case "project-root":
        options.projectRoot = value;
        break;
      case "global-store":
        options.globalStore = value;
        break;
      case "query":
        options.query = value;
        break;
      case "limit":
      case "max-chars": {
        const number = wholeNumber(value, token.name === "limit" ? -1 : 1);
        if (number === null) return null;
        if (token.name === "limit") options.limit = number;
        else options.maxChars = number;
        break;
      }
      case "no-tracking":
        options.tracking = false;
        break;
      case "json":
        options.json = true;
        break;
      case "verbose":
        options.verbose = true;
        break;
      case "ignore-config":
        options.ignoreConfig = true;
        break;
      case "index":
        options.index = "cli";
        bareIndexAt = token.index;
        break;
      default:
        return null;
    }
  }
  return options;
}
