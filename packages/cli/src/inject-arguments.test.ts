import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { parseInjectArguments } from "./inject-arguments.js";
import { run } from "./run.js";

// What commander hands `inject`'s action: the command itself does not run.
const given = vi.hoisted(() => ({ options: [] as unknown[] }));
vi.mock("./inject-command.js", () => ({
  injectCommand: async (options: unknown) => {
    given.options.push(options);
    return 0;
  },
}));

/** Commander's reading of `inject ARGS`: the options the command would get, or null and the exit code when it refuses them. */
async function commanderReading(args: string[]): Promise<{ code: number; options: unknown }> {
  given.options.length = 0;
  const code = await run({ argv: ["inject", ...args], stdin: process.stdin, stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: "/" });
  return { code, options: given.options[0] ?? null };
}

const ACCEPTED: string[][] = [
  [],
  ["--project-root", "/work/webshop"],
  ["--project-root=/work/webshop"],
  ["--project-root", ""],
  ["--limit", "5"],
  ["--limit=-1"],
  ["--limit", "0"],
  ["--limit", " 7 "],
  ["--max-chars", "9000"],
  ["--max-chars=1"],
  ["--global-store", "/home/ada/store"],
  ["--no-tracking"],
  ["--json"],
  ["--verbose"],
  ["--query", "cart checkout flaky test"],
  ["--query="],
  ["--index"],
  ["--index", "cli"],
  ["--index", "mcp"],
  ["--index", "--json"],
  ["--json", "--index"],
  ["--ignore-config"],
  ["--project-root", "p", "--limit", "3", "--global-store", "g", "--max-chars", "500", "--no-tracking", "--json", "--verbose", "--query", "q", "--index", "mcp", "--ignore-config"],
];

// Left to commander, which reads them itself (a value starting with a dash, help, --debug, …).
const LEFT_TO_COMMANDER: string[][] = [
  ["--limit", "-1"],
  ["--query", "--json"],
  ["--index=mcp"],
  ["--json", "--json"],
  ["--limit", "3", "--limit", "4"],
  ["--help"],
  ["-h"],
  ["--debug"],
  ["--version"],
];

// Bad input: commander refuses it with exit 2.
const REFUSED: string[][] = [
  ["--limit"],
  ["--limit", "five"],
  ["--limit", "-2"],
  ["--limit", "2.5"],
  ["--max-chars", "0"],
  ["--max-chars="],
  ["--index", "both"],
  ["--index", "mcp", "cli"],
  ["stray"],
  ["--tracking"],
  ["--jsno"],
  ["-j"],
  ["--project-root"],
  ["--json=yes"],
  ["--", "--json"],
];

describe("parseInjectArguments", () => {
  it.each(ACCEPTED.map((args) => ({ args })))("reads $args as commander does", async ({ args }) => {
    const reading = await commanderReading(args);
    expect({ code: reading.code, options: parseInjectArguments(args) }).toEqual({ code: 0, options: reading.options });
  });

  it.each(LEFT_TO_COMMANDER.map((args) => ({ args })))("leaves $args to commander", ({ args }) => {
    expect(parseInjectArguments(args)).toBeNull();
  });

  it.each(REFUSED.map((args) => ({ args })))("leaves bad input $args to commander, which refuses it with exit 2", async ({ args }) => {
    expect({ lean: parseInjectArguments(args), code: (await commanderReading(args)).code }).toEqual({ lean: null, code: 2 });
  });

  it("never accepts a command line that commander reads otherwise", async () => {
    const word = fc.constantFrom(
      "--project-root", "--limit", "--global-store", "--max-chars", "--no-tracking", "--json", "--verbose", "--query", "--index", "--ignore-config",
      "--limit=2", "--max-chars=0", "--index=cli", "--tracking", "--debug", "-h", "--", "-1", "0", "12", "x", "cli", "mcp", "", " 3", "--json=1",
      "-", "--limit=", "--query=-x", "--query=a=b", "--index=", "--=x", "--bogus=1",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(word, { maxLength: 6 }), async (args) => {
        const lean = parseInjectArguments(args);
        if (lean === null) return;
        const reading = await commanderReading(args);
        expect({ args, code: reading.code, options: lean }).toEqual({ args, code: 0, options: reading.options });
      }),
      { numRuns: 400 },
    );
  });
});
