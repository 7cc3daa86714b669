import { parseInjectArguments } from "./inject-arguments.js";
import { injectCacheSlot, readCachedInjectOutput, saveInjectOutput } from "./inject-cache.js";
import type { injectOutput } from "./inject-command.js";
import { printInjectOutput } from "./inject-output.js";
import { printableIO, reportFailure, type CliIO } from "./io.js";

/** The part of the inject command that reads the files, loaded only when no saved output will do. */
export interface InjectModule {
  injectOutput: typeof injectOutput;
}

/**
 * `iflow-memory inject …` without commander or any other command: `io.argv` read by
 * `parseInjectArguments`, what to print taken from the cache when `cache` is given and its
 * files are unchanged, else worked out (by `load()`'s module) and saved for the next run. The
 * same output, errors and exit codes as `run`; null when the arguments are not read here (not
 * `inject`, or anything unusual), for `run` to read them.
 *
 * @example
 * const code = (await runInject(io, { salt: VERSION }, () => import("./inject-command.js"))) ?? (await run(io));
 */
export async function runInject(io: Omit<CliIO, "stdin">, cache: { salt: string } | null, load: () => Promise<InjectModule>): Promise<number | null> {
  if (io.argv[0] !== "inject") return null;
  const options = parseInjectArguments(io.argv.slice(1));
  if (options === null) return null;
  const printable = printableIO(io);
  try {
    const slot = cache === null ? null : await injectCacheSlot(options, io, cache.salt);
    const saved = slot === null ? null : readCachedInjectOutput(slot);
    if (saved !== null) {
      if (saved.configWarnings !== "") printable.stderr.write(saved.configWarnings);
      await printInjectOutput(saved, options, printable);
      return 0;
    }
    const output = await (await load()).injectOutput(options, printable);
    await printInjectOutput(output, options, printable);
    if (slot !== null) await saveInjectOutput(slot, output);
    return 0;
  } catch (error) {
    return reportFailure(error, io, false);
  }
}
