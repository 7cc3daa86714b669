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
}
