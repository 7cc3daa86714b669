import { formatWarning, trackInjection, type InjectionGrowth, type TrackedPlan } from "@iflow-memory/store";
import type { InjectOptions } from "./inject-command.js";
import type { CliIO } from "./io.js";

/**
 * What `inject` prints, in the order it prints it. Worked out by `injectOutput`, printed (and
 * tracked) by `printInjectOutput`; a repeated run with the same files and options may print a
 * saved one (`inject-cache.ts`).
 */
export interface InjectOutput {
  /** The config's warnings: first on stderr, printed by `injectOutput` as it reads the config. */
  configWarnings: string;
  /** The rest of stderr before the tracking file is written: the files' warnings, or why nothing is printed. */
  stderrBefore: string;
  /** stderr after it: the --verbose report of the files not read. */
  stderrAfter: string;
  stdout: string;
  /** What the tracking file records when tracking is on; null: nothing to record. */
  tracking: { globalStoreDir: string; project: string; plan: TrackedPlan } | null;
  /** Not printed: kept with a saved output, to tell a later run that learnings appended since leave it as it is (`InjectionGrowth`). */
  growth?: InjectionGrowth;
}

/**
 * Prints what `injectOutput` worked out after the config's warnings, writing the tracking file
 * (unless `--no-tracking`) where a failure to write it is reported: after the files' warnings.
 */
export async function printInjectOutput(output: InjectOutput, options: Pick<InjectOptions, "tracking">, io: Pick<CliIO, "stdout" | "stderr" | "now">): Promise<void> {
  if (output.stderrBefore !== "") io.stderr.write(output.stderrBefore);
  if (options.tracking && output.tracking !== null) {
    const warning = await trackInjection({ ...output.tracking, now: (io.now ?? (() => new Date()))() });
    if (warning !== null) io.stderr.write(`iflow-memory: warning: ${formatWarning(warning)}\n`);
  }
  if (output.stderrAfter !== "") io.stderr.write(output.stderrAfter);
  if (output.stdout !== "") io.stdout.write(output.stdout);
}
