import type { InjectOptions } from "./inject-command.js";
import { wholeNumber } from "./whole-number.js";

// `inject`'s options as run.ts declares them to commander, and whether each takes a value.
// --index takes an optional value: a flag here, its value the word right after it.
const OPTIONS: Readonly<Record<string, "string" | "boolean">> = {
  "project-root": "string",
  limit: "string",
  "global-store": "string",
  "max-chars": "string",
  "no-tracking": "boolean",
  json: "boolean",
  verbose: "boolean",
  query: "string",
  index: "boolean",
  "ignore-config": "boolean",
};

/**
 * The options of `iflow-memory inject ARGS` as commander would give them to the command, read
 * without loading commander; null for anything this reading is not sure to read as commander
 * does — an unknown, short or repeated option, a value that starts with a dash, a value given to
 * a flag, a bad number, a stray word, `--help`, `--debug`, `--` — which the full command line then
 * reads, and reports as it always has. Read by hand, as `util.parseArgs` reads these options
 * (`--name value`, `--name=value`), not with it: its first use costs a new process some 1.3 ms,
 * a twentieth of node's own start. inject-arguments.test.ts checks that whatever this accepts,
 * commander accepts with the same options.
 *
 * @example
 * parseInjectArguments(["--limit", "5", "--no-tracking"]); // { tracking: false, limit: 5 }
 * parseInjectArguments(["--limit", "five"]); // null
 */
export function parseInjectArguments(args: string[]): InjectOptions | null {
  const options: InjectOptions = { tracking: true };
  const seen = new Set<string>();
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    // A word here is none of the options' (--index's is taken with it, below).
    if (!arg.startsWith("--") || arg === "--") return null;
    const equals = arg.indexOf("=");
    const name = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
    if (!Object.hasOwn(OPTIONS, name) || seen.has(name)) return null;
    seen.add(name);
    let value = "";
    if (OPTIONS[name] === "string") {
      if (equals >= 0) value = arg.slice(equals + 1);
      else {
        const next = args[++at];
        // None given, or one that reads as an option: commander's to read.
        if (next === undefined || next.startsWith("-")) return null;
        value = next;
      }
    } else if (equals >= 0) return null;
    switch (name) {
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
        const number = wholeNumber(value, name === "limit" ? -1 : 1);
        if (number === null) return null;
        if (name === "limit") options.limit = number;
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
        // Commander takes the word after it as its value when it is one of them.
        options.index = args[at + 1] === "cli" || args[at + 1] === "mcp" ? (args[++at] as "cli" | "mcp") : "cli";
        break;
    }
  }
  return options;
}
