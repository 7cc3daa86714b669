import { existsSync, statSync, type Stats } from "node:fs";
import { resolve } from "node:path";
import {
  DEFAULT_CONFIG,
  entryFileCache,
  findProjectRoot,
  formatWarning,
  injectMemory,
  readConfig,
  resolveGlobalStoreDir,
  sessionIndex,
  trackedPlan,
  type EntryFileCache,
} from "@iflow-memory/store";
import { RuntimeError } from "./errors.js";
import { printInjectOutput, type InjectOutput } from "./inject-output.js";
import type { CliIO } from "./io.js";

export interface InjectOptions {
  projectRoot?: string;
  limit?: number;
  globalStore?: string;
  maxChars?: number;
  tracking: boolean;
  json?: boolean;
  verbose?: boolean;
  query?: string;
  /** "cli" or "mcp": also the index of the entries not shown in full, its heading naming that way to fetch them. */
  index?: "cli" | "mcp";
  /** Use none of the project's config: the original memory.py's behaviour, injecting even when the config disables it. */
  ignoreConfig?: boolean;
}

/** `iflow-memory inject`: the memory block (or the selected entries as JSON) on stdout. */
export async function injectCommand(options: InjectOptions, io: CliIO): Promise<number> {
  await printInjectOutput(await injectOutput(options, io), options, io);
  return 0;
}

/**
 * Reads the config and the memory files and works out what `inject` prints, printing only the
 * config's warnings (before anything else can fail). Writes nothing but the files' caches — or
 * not even those when `aside` is given: each file read anew that would have been kept is named to
 * `aside.unkept`, for the caller to start a process that keeps it.
 */
export async function injectOutput(options: InjectOptions, io: Pick<CliIO, "cwd" | "env" | "stderr">, aside?: { unkept: (path: string) => void }): Promise<InjectOutput> {
  const projectRoot =
    options.projectRoot === undefined ? await findProjectRoot(io.cwd) : resolve(io.cwd, options.projectRoot);
  requireDirectory(projectRoot);

  // In the command's own thread, as the memory files (`fileCache`): libuv's threads would be started for it alone.
  const read = options.ignoreConfig === true ? null : await readConfig(projectRoot, { inThread: true });
  const config = read?.config ?? DEFAULT_CONFIG;
  const globalStoreDir = resolveGlobalStoreDir({
    flag: options.globalStore === undefined ? undefined : resolve(io.cwd, options.globalStore),
    env: io.env,
  });
  const index = options.index === undefined ? undefined : sessionIndex({ ...config, injectionIndex: true }).index;
  const configWarnings = (read?.warnings ?? []).map((warning) => `iflow-memory: warning: ${formatWarning(warning)}\n`).join("");
  if (configWarnings !== "") io.stderr.write(configWarnings);
  if (read !== null && !config.injectionEnabled) {
    // As the hooks: nothing injected, nothing tracked. Said on stderr, so that stdout stays what a session would get.
    return {
      configWarnings,
      stderrBefore: `iflow-memory: memory injection is off in ${read.path} (memory_injection_enabled: false); nothing printed. Pass --ignore-config to print it anyway.\n`,
      stderrAfter: "",
      stdout: options.json === true ? `${JSON.stringify({ projectRoot, globalStore: globalStoreDir, disabled: true, entries: [], chars: 0 }, null, 2)}\n` : "",
      tracking: null,
    };
  }
  // The config's budget applies when it sets one (as the hooks'); without it, the original's unbounded block.
  const configuredMaxChars = read?.configured.includes("injectionMaxChars") === true ? config.injectionMaxChars : null;
  // Tracked by printInjectOutput, as the block is printed.
  const result = await injectMemory({
    projectRoot,
    globalStoreDir,
    includeGlobal: options.globalStore !== undefined || config.globalEnabled,
    limit: options.limit ?? config.injectionLimit,
    // With a query, the block the hooks would give: the config's budget unless one is asked for.
    // With --index, a session start's block: the config's budget too.
    maxChars: options.maxChars ?? (options.query === undefined && index === undefined ? configuredMaxChars : config.injectionMaxChars),
    ...(options.query === undefined ? {} : { query: { text: options.query } }),
    ...(index === undefined || options.index === undefined ? {} : { index: { ...index, fetch: options.index } }),
    tracking: null,
    // What tells a later run that learnings appended to a file leave this output as it is (in today's order only).
    growth: true,
    // The hooks' per-file cache, in the user's own store as the saved output (whatever
    // --global-store names), where there is one to keep it in: none is made for it.
    ...fileCache(resolveGlobalStoreDir({ env: io.env }), aside),
  });

  const { plan } = result;
  let stdout = plan.block;
  if (options.json === true) {
    const report = {
      project: result.project,
      projectRoot,
      globalStore: globalStoreDir,
      entries: plan.entries,
      sources: plan.sources,
      chars: plan.block.length,
      droppedForBudget: plan.droppedForBudget,
      ...(plan.indexed.length === 0 ? {} : { indexed: plan.indexed.map((entry) => ({ name: entry.name, contentHash: entry.contentHash, category: entry.category })) }),
    };
    stdout = `${JSON.stringify(report, null, 2)}\n`;
  }
  return {
    configWarnings,
    stderrBefore: result.warnings.map((warning) => `iflow-memory: warning: ${formatWarning(warning)}\n`).join(""),
    stderrAfter: options.verbose === true ? result.ignoredFiles.map((path) => `iflow-memory: ignored ${path} (not an entry file)\n`).join("") : "",
    stdout,
    tracking: plan.entries.length === 0 ? null : { globalStoreDir, project: result.project, plan: trackedPlan(plan) },
    ...(result.growth == null ? {} : { growth: result.growth }),
  };
}

function requireDirectory(path: string): void {
  // (Not fs/promises: loading it costs inject some 2 ms.)
  let info: Stats | null;
  try {
    info = statSync(path);
  } catch {
    info = null;
  }
  if (info === null) {
    throw new RuntimeError("NO_PROJECT", `cannot read project root ${path}: no such directory; pass an existing --project-root`);
  }
  if (!info.isDirectory()) {
    throw new RuntimeError("NO_PROJECT", `cannot use project root ${path}: it is a file, not a directory; pass the project's folder`);
  }
}

// Read in the command's own thread (`EntryFileCache.inThread`): a command that prints and exits waits for libuv's threads either way.
function fileCache(home: string, aside: { unkept: (path: string) => void } | undefined): { cache?: EntryFileCache } {
  if (!existsSync(home)) return {};
  return { cache: { ...entryFileCache(home), inThread: true, ...(aside === undefined ? {} : { readOnly: true, unkept: aside.unkept }) } };
}
