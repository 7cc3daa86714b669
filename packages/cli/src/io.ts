import type { HookInput } from "@iflow-memory/hook-adapter";
import { stripControlCharacters } from "@iflow-memory/parser";
import { UsageError } from "./errors.js";

/** Everything a command touches of the outside world, so that it runs in-process in tests. */
export interface CliIO {
  argv: string[];
  stdin: HookInput;
  stdout: { write(text: string, callback?: () => void): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  now?: () => Date;
  /**
   * Resolves when the user stops a long-running command (`ui`): the bin's Ctrl-C or SIGTERM.
   * Absent: such a command runs until the process ends.
   */
  waitForStop?: () => Promise<unknown>;
}

/**
 * How an action command reports what it did: its result as JSON with `--json` (for scripts and
 * other tools), else the line for a person.
 *
 * @example
 * printer(io)(options, { hash, name }, `Archived "${name}".\n`);
 */
export function printer(io: Pick<CliIO, "stdout">): (options: { json?: boolean }, data: unknown, text: string) => void {
  return (options, data, text) => {
    io.stdout.write(options.json === true ? `${JSON.stringify(data, null, 2)}\n` : text);
  };
}

/**
 * The io with everything written to stdout and stderr stripped of terminal escapes and other
 * control characters (tab and newline kept): an entry, a lesson or a file name is printed as
 * text, never as a command to the terminal.
 *
 * @example
 * printableIO(io).stdout.write("\u001b]0;title\u0007text\n"); // writes "text\n"
 */
export function printableIO<T extends Pick<CliIO, "stdout" | "stderr">>(io: T): T {
  return {
    ...io,
    stdout: { write: (text: string, callback?: () => void) => io.stdout.write(stripControlCharacters(text), callback) },
    stderr: { write: (text: string) => io.stderr.write(stripControlCharacters(text)) },
  };
}

/**
 * How a command's failure ends: one line on stderr (a stack trace only with `--debug`), and the
 * exit code — 2 for a usage error, else 1.
 *
 * @example
 * return reportFailure(error, io, argv.includes("--debug"));
 */
export function reportFailure(error: unknown, io: Pick<CliIO, "stderr">, debug: boolean): number {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(stripControlCharacters(`iflow-memory: ${message}\n`));
  if (debug && error instanceof Error && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
  return error instanceof UsageError ? 2 : 1;
}
