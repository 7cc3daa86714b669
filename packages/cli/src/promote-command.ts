import { resolve } from "node:path";
import { findProjectRoot, promoteEntries, resolveGlobalStoreDir, type PromoteSelection } from "@iflow-memory/store";
import { Command } from "commander";
import { UsageError } from "./errors.js";
import type { CliIO } from "./io.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `iflow-memory promote`: universal learnings of a project into the global store. */
export function registerPromoteCommand(program: Command, io: CliIO, setExitCode: (code: number) => void): void {
  program
    .command("promote")
    .description("promote a project's universal learnings into the global store (project-specific ones stay local)")
    .option("--project-root <dir>", "the project (default: the nearest folder above the current one with .git or docs/knowledge-bank)")
    .option("--all", "every entry of the knowledge bank")
    .option("--entry <name>", "this entry (repeatable)", collect)
    .option("--since <git-rev>", "the entries added to the knowledge bank since this git revision")
    .option("--feature <id>", "the feature the learnings come from, recorded as provenance (\"Feature #ID\")")
    .option("--project <name>", "the project's name in the provenance (default: the root folder's name)")
    .option("--universal <name>", "classify this entry as universal (repeatable)", collect)
    .option("--project-specific <name>", "classify this entry as project-specific (repeatable)", collect)
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .option("--strict", "refuse to promote anything that contains a secret, instead of redacting it")
    .option("--dry-run", "show what would happen; change nothing")
    .option("--json", "print the result as JSON")
    .action(
      async (options: {
        projectRoot?: string;
        all?: boolean;
        entry?: string[];
        since?: string;
        feature?: string;
        project?: string;
        universal?: string[];
        projectSpecific?: string[];
        globalStore?: string;
        strict?: boolean;
        dryRun?: boolean;
        json?: boolean;
      }) => {
        const chosen = [options.all === true, options.entry !== undefined, options.since !== undefined].filter(Boolean).length;
        if (chosen > 1) throw new UsageError("promote takes one of --all, --entry NAME or --since GIT_REV, not several");
        const selection: PromoteSelection =
          options.all === true ? { kind: "all" } : options.entry !== undefined ? { kind: "names", names: options.entry } : options.since !== undefined ? { kind: "since", revision: options.since } : { kind: "new" };
        const projectRoot = options.projectRoot === undefined ? await findProjectRoot(io.cwd) : resolve(io.cwd, options.projectRoot);
        const result = await promoteEntries({
          projectRoot,
          globalStoreDir: resolveGlobalStoreDir({ flag: options.globalStore === undefined ? undefined : resolve(io.cwd, options.globalStore), env: io.env }),
          project: options.project,
          feature: options.feature,
          selection,
          universal: options.universal ?? [],
          projectSpecific: options.projectSpecific ?? [],
          dryRun: options.dryRun === true,
          strict: options.strict === true,
          now: (io.now ?? (() => new Date()))(),
        });
        for (const warning of result.warnings) io.stderr.write(`iflow-memory: warning: ${warning}\n`);
        if (options.json === true) {
          io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        } else {
          const actions = { added: "added to the global store", counted: "observed once more", "already-counted": `already counted for ${result.provenance}`, "kept-local": "kept local" };
          for (const entry of result.entries) {
            const count = entry.observationCount === null ? "" : ` (observation count ${entry.observationCount})`;
            io.stdout.write(`${entry.name}: ${actions[entry.action]}${count}. ${entry.reason}\n`);
          }
          if (result.entries.length === 0) io.stdout.write("Nothing new to promote (see --all, --entry or --since).\n");
          io.stdout.write(`${result.dryRun ? "(dry run, nothing written) " : ""}${result.summary}\n`);
        }
        setExitCode(0);
      },
    );
}
