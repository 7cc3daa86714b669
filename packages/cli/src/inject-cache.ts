import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { asciiJson, findProjectRoot, fingerprintChangedFile, injectionFingerprint, pruneStoreCache, readTextFileSync, resolveGlobalStoreDir, shortHash, storeCacheDir, writeFileAtomically, type growInjection, type InjectionGrowth } from "@iflow-memory/store";
import type { InjectOptions } from "./inject-command.js";
import type { InjectOutput } from "./inject-output.js";
import type { CliIO } from "./io.js";

/** Where a run of `inject` may find, or leave, what it prints. */
export interface InjectCacheSlot {
  path: string;
  /** Everything the output is worked out from: the tool (salt), the options, and every file's stamp. */
  key: string;
  /** Whether an output worked out now may be saved (no file changed too recently to tell a later change). */
  settled: boolean;
  /** The key again, taken after the output was worked out: saved only if no file changed meanwhile. */
  recheck: () => string;
}

/**
 * The cache slot of `inject` with these options, in the cache folder of the user's global store
 * (`$IFLOW_MEMORY_HOME`, else ~/.claude/iflow/memory, whatever --global-store names), beside the
 * hooks' cached injections and keyed by the same fingerprint of every file the output is worked
 * out from (the config, the knowledge bank, the global store and its feedback). A slot per build
 * (`salt`): two installs of the command (the package's and the Claude Code plugin's) called in
 * turn keep each its own output, not each the other's stale. Null when the output is not cached:
 * --verbose (it lists the folder), no project folder, no memory file.
 *
 * @example
 * const slot = await injectCacheSlot(options, io, "0.1.0 …");
 * const saved = slot === null ? null : readCachedInjectOutput(slot, { grow: true });
 */
export async function injectCacheSlot(options: InjectOptions, io: Pick<CliIO, "cwd" | "env">, salt: string): Promise<InjectCacheSlot | null> {
  if (options.verbose === true) return null;
  const projectRoot = options.projectRoot === undefined ? await findProjectRoot(io.cwd) : resolve(io.cwd, options.projectRoot);
  if (statSync(projectRoot, { throwIfNoEntry: false })?.isDirectory() !== true) return null;
  const globalStoreDir = resolveGlobalStoreDir({ flag: options.globalStore === undefined ? undefined : resolve(io.cwd, options.globalStore), env: io.env });
  const home = resolveGlobalStoreDir({ env: io.env });
  // What the output depends on beyond the files: every option but tracking (written as it is printed).
  const asked = JSON.stringify([options.limit, options.maxChars, options.json, options.query, options.index, options.ignoreConfig, options.globalStore !== undefined]);
  const take = () => injectionFingerprint({ projectRoot, globalStoreDir, salt: `${salt}\n${asked}` });
  const fingerprint = take();
  if (!fingerprint.memory) return null;
  return {
    path: join(storeCacheDir(home), `inject-${shortHash(`${projectRoot}\n${globalStoreDir}\n${asked}\n${salt}`)}.json`),
    key: fingerprint.value,
    settled: fingerprint.settled,
    recheck: () => take().value,
  };
}

/**
 * What `slot` holds: the output saved for exactly its key (`current`), or else, for a caller that
 * can `grow` one, one saved for its files before one of them changed, with its key, where it keeps
 * what may tell that they only grew (`InjectOutput.growth`: `growSavedOutput`). Null: none,
 * another version's, or damaged.
 */
export function readCachedInjectOutput(
  slot: InjectCacheSlot,
  options: { grow?: boolean } = {},
): { current: true; output: InjectOutput } | { current: false; key: string; output: InjectOutput & { growth: InjectionGrowth } } | null {
  const file = readTextFileSync(slot.path);
  if (!("text" in file)) return null;
  // Saved with its key first (`saveInjectOutput`): another key's output (the files changed since)
  // is told by that, and parsed only when it keeps a growth (some 1.5 ms of a run after an edit).
  const current = file.text.startsWith(`{"key":${asciiJson(slot.key)},`);
  if (!current && (options.grow !== true || !file.text.includes(`,"growth":{`))) return null;
  try {
    const saved = JSON.parse(file.text) as { key?: unknown; output?: Partial<InjectOutput> };
    const output = saved.output;
    if (typeof saved.key !== "string" || typeof output !== "object" || output === null) return null;
    const texts = [output.configWarnings, output.stderrBefore, output.stderrAfter, output.stdout];
    if (!texts.every((text) => typeof text === "string")) return null;
    const tracking = output.tracking;
    if (tracking !== null && (typeof tracking !== "object" || typeof tracking.globalStoreDir !== "string" || typeof tracking.project !== "string" || !isTrackedPlan(tracking.plan))) return null;
    if (current) return saved.key === slot.key ? { current, output: output as InjectOutput } : null;
    return typeof output.growth === "object" && output.growth !== null ? { current, key: saved.key, output: output as InjectOutput & { growth: InjectionGrowth } } : null;
  } catch {
    return null;
  }
}

/** The part of inject that tells whether an output saved before learnings were appended still holds (inject-grow.cjs). */
export interface GrowModule {
  growInjection: typeof growInjection;
}

/**
 * The output saved (`saved`, with its key) for the files as they were before learnings were
 * appended to one of the knowledge bank's, which they leave as it is (`growInjection`), with the
 * growth from that file as it is now; null when another file changed too, or it cannot be told so.
 *
 * @example
 * const grown = saved?.current === false ? await growSavedOutput(slot, saved, () => import("./inject-grow.js")) : null;
 */
export async function growSavedOutput(slot: InjectCacheSlot, saved: { key: string; output: InjectOutput & { growth: InjectionGrowth } }, load: () => Promise<GrowModule>): Promise<InjectOutput | null> {
  const path = fingerprintChangedFile(saved.key, slot.key);
  const { files } = saved.output.growth;
  // Not loaded for a file the growth does not name (the global store's, a small one).
  if (path === null || !Array.isArray(files) || !files.some((file) => file?.path === path)) return null;
  const growth = await (await load()).growInjection(saved.output.growth, path, { inThread: true });
  return growth === null ? null : { ...saved.output, growth };
}

/**
 * Saves `output` in `slot` (atomically, mode 0600: it holds memory text) when its files were
 * settled and are unchanged since it was keyed, and the global store's folder exists (a cache
 * is no reason to make one), and then removes the caches no session has used for a month
 * (`pruneStoreCache`, once a day at most). Never throws: a cache not saved costs the next run its speed only.
 */
export async function saveInjectOutput(slot: InjectCacheSlot, output: InjectOutput): Promise<void> {
  try {
    if (!slot.settled || slot.recheck() !== slot.key) return;
    const cacheDir = dirname(slot.path);
    if (statSync(dirname(cacheDir), { throwIfNoEntry: false })?.isDirectory() !== true) return;
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    // The key first: `readCachedInjectOutput` compares it before parsing the rest. In ASCII, read at its fastest.
    await writeFileAtomically(slot.path, asciiJson({ key: slot.key, output }), { durable: false, mode: 0o600 });
    pruneStoreCache(cacheDir);
  } catch {
    // not saved
  }
}

function isTrackedPlan(plan: unknown): boolean {
  if (typeof plan !== "object" || plan === null) return false;
  const { block, entries, sources, droppedForBudget } = plan as Record<string, unknown>;
  return (
    typeof block === "string" &&
    Array.isArray(entries) &&
    entries.every((entry) => typeof (entry as { name?: unknown } | null)?.name === "string") &&
    typeof (sources as { local?: unknown } | null)?.local === "number" &&
    typeof (sources as { global?: unknown } | null)?.global === "number" &&
    typeof droppedForBudget === "number"
  );
}
