import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { addSessionStartHook, removeSessionStartHook } from "@iflow-memory/hook-adapter";
import { updateSettingsFile } from "@iflow-memory/store";
import { Command } from "commander";
import type { CliIO } from "./io.js";

/**
 * `iflow-memory setup claude`: adds (or with --uninstall removes) the SessionStart hook in
 * ~/.claude/settings.json, or in a project's .claude/settings.json with --project.
 */
export function registerSetupCommand(program: Command, io: CliIO, setExitCode: (code: number) => void): void {
  program
    .command("setup")
    .description("install iflow-memory into an agent")
    .command("claude")
    .description("add the SessionStart hook to Claude Code's settings (~/.claude/settings.json, or the project's with --project)")
    .option("--project <dir>", "install into DIR/.claude/settings.json instead of your user settings")
    .option("--command <command>", "the hook command to register (default: node and the standalone hook bundle)")
    .option("--uninstall", "remove the hook instead")
    .option("--dry-run", "print the resulting settings; change nothing")
    .action(async (options: { project?: string; command?: string; uninstall?: boolean; dryRun?: boolean }) => {
      const home = io.env.HOME !== undefined && io.env.HOME !== "" ? io.env.HOME : homedir();
      const path = options.project === undefined ? join(home, ".claude", "settings.json") : join(resolve(io.cwd, options.project), ".claude", "settings.json");
      const command = options.command ?? defaultHookCommand();
      const result = await updateSettingsFile(
        path,
        (settings) => {
          if (options.uninstall === true) {
            const removed = removeSessionStartHook(settings);
            return { settings: removed.settings, changed: removed.outcome === "removed", message: removed.outcome === "removed" ? `Removed the iflow-memory SessionStart hook from ${path}.` : `No iflow-memory hook in ${path}; nothing changed.` };
          }
          const added = addSessionStartHook(settings, command);
          const message = { added: `Added the SessionStart hook to ${path}:\n  ${command}`, updated: `Updated the SessionStart hook in ${path}:\n  ${command}`, unchanged: `Already installed in ${path}; nothing changed.` }[added.outcome];
          return { settings: added.settings, changed: added.outcome !== "unchanged", message };
        },
        { dryRun: options.dryRun === true },
      );
      if (options.dryRun === true) io.stdout.write(`${JSON.stringify(result.settings, null, 2)}\n(dry run: ${path} not changed)\n`);
      else io.stdout.write(`${result.message}${result.backup === null ? "" : `\nPrevious settings kept in ${result.backup}.`}\n`);
      setExitCode(0);
    });
}

// The standalone hook bundle (fastest) when it is installed beside the CLI, else the CLI itself.
function defaultHookCommand(): string {
  const bundle = fileURLToPath(new URL("../../hook-adapter/dist/session-start.cjs", import.meta.url));
  if (existsSync(bundle)) return `node "${bundle}"`;
  return `node "${fileURLToPath(new URL("./bin.js", import.meta.url))}" hook session-start`;
}
