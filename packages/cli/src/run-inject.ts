import { parseInjectArguments } from "./inject-arguments.js";
import { growSavedOutput, injectCacheSlot, readCachedInjectOutput, saveInjectOutput, type GrowModule } from "./inject-cache.js";
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
 * files are unchanged — or only grew by learnings that leave it as it is (`growSavedOutput`, with
 * `loadGrow()`'s module) — else worked out (by `load()`'s module) and saved for the next run. The
 * same output, errors and exit codes as `run`; null when the arguments are not read here (not
 * `inject`, or anything unusual), for `run` to read them.
 *
 * @example
 * const code = (await runInject(io, { salt: VERSION }, () => import("./inject-command.js"))) ?? (await run(io));
 */
export async function runInject(
  io: Omit<CliIO, "stdin">,
  cache: { salt: string } | null,
  load: () => Promise<InjectModule>,
  loadGrow?: () => Promise<GrowModule>,
): Promise<number | null> {
  if (io.argv[0] !== "inject") return null;
  const options = parseInjectArguments(io.argv.slice(1));
  if (options === null) return null;
  const printable = printableIO(io);
  try {
    const slot = cache === null ? null : await injectCacheSlot(options, io, cache.salt);
    const saved = slot === null ? null : readCachedInjectOutput(slot, { grow: loadGrow !== undefined });
    // Saved for files that have only grown since: what it tells, whatever may go wrong, is only whether it still holds.
    const grown = saved?.current === false && loadGrow !== undefined ? await growSavedOutput(slot!, saved, loadGrow).catch(() => null) : null;
    const kept = saved?.current === true ? saved.output : grown;
    if (kept !== null) {
      if (kept.configWarnings !== "") printable.stderr.write(kept.configWarnings);
      await printInjectOutput(kept, options, printable);
      if (grown !== null) await saveInjectOutput(slot!, grown);
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
