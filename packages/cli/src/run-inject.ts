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
 * With `keepAside`, an output worked out anew keeps none of the files it read: where one would
 * have been kept, `keepAside()` is called once the output is printed and saved, to start a
 * process that keeps them (`keepInjected`). Keeping a file is most of the work of a run without
 * caches (its terms for the hooks' index, and its cache written).
 *
 * @example
 * const code = (await runInject(io, { salt: VERSION }, () => import("./inject-command.js"))) ?? (await run(io));
 */
export async function runInject(
  io: Omit<CliIO, "stdin">,
  cache: { salt: string } | null,
  load: () => Promise<InjectModule>,
  loadGrow?: () => Promise<GrowModule>,
  keepAside?: () => void,
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
    let unkept = false;
    const aside = slot === null || keepAside === undefined ? undefined : { unkept: () => (unkept = true) };
    const output = await (await load()).injectOutput(options, printable, aside);
    await printInjectOutput(output, options, printable);
    if (slot !== null) await saveInjectOutput(slot, output);
    if (unkept) keepAside!();
    return 0;
  } catch (error) {
    return reportFailure(error, io, false);
  }
}

/**
 * What the process that `runInject` starts with `keepAside` does: the output of the same `inject`
 * arguments (`io.argv`) worked out with the files' caches kept, and saved with its growth (a
 * later run after an edit then reads the learnings appended alone); nothing printed, nothing
 * tracked. 0 when done, or when there was nothing to keep it for; 1 when it failed, which costs
 * the next run its speed only.
 *
 * @example
 * process.exitCode = await keepInjected({ ...io, argv: ["inject", "--no-tracking"] }, { salt }, loadInject);
 */
export async function keepInjected(io: Pick<CliIO, "argv" | "cwd" | "env">, cache: { salt: string }, load: () => Promise<InjectModule>): Promise<number> {
  const options = io.argv[0] === "inject" ? parseInjectArguments(io.argv.slice(1)) : null;
  try {
    const slot = options === null ? null : await injectCacheSlot(options, io, cache.salt);
    if (slot === null) return 0;
    await saveInjectOutput(slot, await (await load()).injectOutput(options!, { ...io, stderr: { write: () => true } }));
    return 0;
  } catch {
    return 1;
  }
}
