import type { HookInput } from "@iflow-memory/hook-adapter";

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
