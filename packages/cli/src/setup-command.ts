import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { addMcpServer, addSessionStartHook, findClaudeInstallRoutes, quoteForShell, removeCommandHooks, removeMcpServer, type HookEvent } from "@iflow-memory/hook-adapter";
import { removeStoreCache, resolveGlobalStoreDir, revertSettingsFile, updateSettingsFile } from "@iflow-memory/store";
import { Command } from "commander";
import { defaultHookCommand, defaultMcpServer } from "./hook-commands.js";
import type { CliIO } from "./io.js";
import { dryRunNote, removedHooksMessage, revertNote } from "./revert-note.js";
import { registerSetupCodexCommand } from "./setup-codex-command.js";
import { registerSetupGeminiCommand } from "./setup-gemini-command.js";
import { listAgents } from "./setup-list.js";

/**
 * `iflow-memory setup claude`: adds (or with --uninstall removes) the SessionStart and
 * UserPromptSubmit hooks in ~/.claude/settings.json (or a project's .claude/settings.json with
 * --project), and the MCP server in Claude Code's ~/.claude.json (user scope, or the project's
 * local scope with --project).
 */
export function registerSetupCommand(program: Command, io: CliIO, setExitCode: (code: number) => void): void {
  const setup = program
    .command("setup")
    .description("install iflow-memory into an agent (claude, codex, gemini); without one, list the agents found here and what each would get")
    // No options of its own: an option here would also take its agent's (`setup claude --json`).
    .action(() => {
      listAgents(io);
      setExitCode(0);
    });
  registerSetupCodexCommand(setup, io, setExitCode);
  registerSetupGeminiCommand(setup, io, setExitCode);
  setup
    .command("claude")
    .description("add the SessionStart and UserPromptSubmit hooks to Claude Code's settings (~/.claude/settings.json, or the project's with --project)")
    .option("--project <dir>", "install into DIR/.claude/settings.json instead of your user settings")
    .option("--command <command>", "the SessionStart command to register, and no prompt hook (default: node and the standalone hook bundles)")
    .option("--no-mcp", "do not register the MCP server (search, store and feedback mid-session)")
    .option("--uninstall", "remove the hooks and the MCP server instead")
    .option("--dry-run", "print the resulting settings; change nothing")
    .option("--json", "print what changed as JSON: the settings file, the MCP server, and whether the plugin is installed too")
    .action(async (options: { project?: string; command?: string; mcp?: boolean; uninstall?: boolean; dryRun?: boolean; json?: boolean }) => {
      const home = io.env.HOME !== undefined && io.env.HOME !== "" ? io.env.HOME : homedir();
      const path = options.project === undefined ? join(home, ".claude", "settings.json") : join(resolve(io.cwd, options.project), ".claude", "settings.json");
      // --command names the SessionStart command; the prompt hook is then that command's sibling only when it is ours.
      // With the MCP server beside them, the hooks' index names its tools (`--mcp`).
      const mcp = options.mcp !== false;
      const project = options.project === undefined ? undefined : resolve(io.cwd, options.project);
      const commands: Array<[HookEvent, string]> = [
        ["SessionStart", options.command ?? defaultHookCommand("session-start", mcp, project === undefined ? {} : { project })],
        ...(options.command === undefined ? [["UserPromptSubmit", defaultHookCommand("user-prompt-submit", mcp, project === undefined ? {} : { project })] as [HookEvent, string]] : []),
      ];
      if (options.uninstall === true) {
        await uninstall(io, home, path, options);
        setExitCode(0);
        return;
      }
      const result = await updateSettingsFile(
        path,
        (settings) => {
          let current = settings;
          const lines: string[] = [];
          for (const [event, command] of commands) {
            const added = addSessionStartHook(current, command, 10, event);
            current = added.settings;
            if (added.outcome !== "unchanged") lines.push(`${added.outcome === "added" ? "Added" : "Updated"} the ${event} hook ${added.outcome === "added" ? "to" : "in"} ${path}:\n  ${command}`);
          }
          return { settings: current, changed: lines.length > 0, message: lines.length > 0 ? lines.join("\n") : `Already installed in ${path}; nothing changed.` };
        },
        { dryRun: options.dryRun === true },
      );
      const json = options.json === true;
      if (json) {
        // Printed once, at the end.
      } else if (options.dryRun === true) io.stdout.write(`${JSON.stringify(result.settings, null, 2)}\n(dry run: ${path} not changed)\n`);
      else io.stdout.write(`${result.message}${result.backup === null ? "" : `\nPrevious settings kept in ${result.backup}.`}\n`);
      const mcpMessage = options.mcp !== false ? await setupMcpServer(home, options.project === undefined ? undefined : resolve(io.cwd, options.project), options) : null;
      if (mcpMessage !== null && !json) io.stdout.write(`${mcpMessage}\n`);
      const routes = findClaudeInstallRoutes({ home, projectRoot: options.project === undefined ? undefined : resolve(io.cwd, options.project) });
      if (project !== undefined && options.command === undefined && commands.some(([, command]) => command.startsWith("iflow-memory ")) && !json) {
        io.stdout.write(`Note: ${path} runs \`iflow-memory\` from the PATH, so that it works on every machine that opens the project (this installation is outside it): put iflow-memory on each one's PATH (\`npm install --global ./packages/cli\` from a clone).\n`);
      }
      if (routes.plugin.length > 0 && !json) {
        io.stdout.write(
          `Note: the iflow-memory plugin is installed too (${routes.plugin.join(", ")}): Claude Code runs both routes' hooks, and only one of them injects. Keep one: \`claude plugin uninstall iflow-memory@iflow-memory\`, or \`iflow-memory setup claude --uninstall\`.\n`,
        );
      }
      if (json) {
        const report = {
          settings: { path, changed: result.changed, message: result.message, backup: result.backup ?? null, ...(options.dryRun === true ? { dryRun: true, result: result.settings } : {}) },
          mcp: mcpMessage,
          pluginInstalledToo: routes.plugin,
        };
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      }
      setExitCode(0);
    });
}

// Removes the hooks and the MCP server; each file is left as it was before the install when
// nothing else changed in it since (see revertSettingsFile), and the backups and the hooks'
// cache go once that succeeded.
async function uninstall(io: CliIO, home: string, path: string, options: { project?: string; mcp?: boolean; dryRun?: boolean; json?: boolean }): Promise<void> {
  // What a person reads, line by line; with --json, the same lines in one JSON document.
  const said: string[] = [];
  const say = (text: string) => said.push(...text.split("\n").filter((line) => line !== ""));
  const result = await revertSettingsFile(
    path,
    (before) => {
      const { settings, keptEmpty, removed } = removeCommandHooks(before, ["SessionStart", "UserPromptSubmit"]);
      return { settings, keptEmpty, changed: removed.length > 0, message: removedHooksMessage(removed, path) };
    },
    { dryRun: options.dryRun === true },
  );
  if (options.dryRun === true) say(`${JSON.stringify(result.settings, null, 2)}\n${dryRunNote(path, result.message, result.outcome)}`);
  else say(`${result.message}\n${revertNote(path, result.outcome, result.backupRemoved)}`);
  if (options.mcp !== false) {
    const project = options.project === undefined ? undefined : resolve(io.cwd, options.project);
    const scope = project === undefined ? "user scope" : `local scope of ${project}`;
    const claudeJson = join(home, ".claude.json");
    const mcp = await revertSettingsFile(
      claudeJson,
      (config) => {
        const removed = removeMcpServer(config, project);
        const changed = removed.outcome === "removed";
        return { settings: removed.settings, keptEmpty: removeMcpServer(config, project, { keepEmpty: true }).settings, changed, message: changed ? `Removed the iflow-memory MCP server (${scope}) from ${claudeJson}.` : `No iflow-memory MCP server (${scope}) in ${claudeJson}; nothing changed.` };
      },
      { dryRun: options.dryRun === true },
    );
    say(options.dryRun === true ? dryRunNote(claudeJson, mcp.message, mcp.outcome) : `${mcp.message}\n${revertNote(claudeJson, mcp.outcome, mcp.backupRemoved)}`);
  }
  if (options.dryRun !== true) {
    const cache = removeStoreCache(resolveGlobalStoreDir({ env: io.env }));
    if (cache !== null) say(`Removed the hooks' cache ${cache.path} (${cache.files} file${cache.files === 1 ? "" : "s"}, ${formatBytes(cache.bytes)}: derived data only, rebuilt at the next session start; your memory is untouched).\n`);
  }
  io.stdout.write(options.json === true ? `${JSON.stringify({ uninstalled: options.dryRun !== true, messages: said }, null, 2)}\n` : said.map((line) => `${line}\n`).join(""));
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// Claude Code reads MCP servers of user scope from ~/.claude.json's top-level "mcpServers", and
// those of a project's local scope from its "projects"[dir]."mcpServers". Claude Code owns that
// file: every other key is kept, and a change it makes meanwhile is read again, never overwritten.
async function setupMcpServer(home: string, project: string | undefined, options: { dryRun?: boolean }): Promise<string> {
  const path = join(home, ".claude.json");
  const scope = project === undefined ? "user scope" : `local scope of ${project}`;
  const server = defaultMcpServer();
  const result = await updateSettingsFile(
    path,
    (config) => {
      const added = addMcpServer(config, server, project);
      const message =
        added.outcome === "unchanged"
          ? `The MCP server is already registered (${scope}) in ${path}; nothing changed.`
          : `${added.outcome === "added" ? "Added" : "Updated"} the MCP server iflow-memory (${scope}) ${added.outcome === "added" ? "to" : "in"} ${path}:\n  ${[server.command, ...server.args.map(quoteForShell)].join(" ")}`;
      return { settings: added.settings, changed: added.outcome !== "unchanged", message };
    },
    { dryRun: options.dryRun === true },
  );
  if (options.dryRun === true) return `(dry run: ${path} not changed; it would say: ${result.message})`;
  return `${result.message}${result.backup === null ? "" : `\nPrevious Claude Code config kept in ${result.backup}.`}`;
}
