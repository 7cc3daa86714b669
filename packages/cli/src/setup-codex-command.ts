import { join, resolve } from "node:path";
import { readFileSync } from "node:fs";
import { addCodexHook, addCodexMcpServer, CODEX_MCP_ENV_VARS, codexHooksDisabled, removeCodexMcpServer, removeCommandHooks, sameCodexConfig } from "@iflow-memory/hook-adapter";
import { revertSettingsFile, revertTextFile, updateSettingsFile, updateTextFile } from "@iflow-memory/store";
import type { Command } from "commander";
import { agentConfigDir } from "./agent-homes.js";
import { defaultHookCommand, defaultMcpServer } from "./hook-commands.js";
import type { CliIO } from "./io.js";
import { dryRunNote, removedHooksMessage, revertNote } from "./revert-note.js";

const EVENTS = [
  ["SessionStart", "session-start"],
  ["UserPromptSubmit", "user-prompt-submit"],
] as const;

/**
 * `iflow-memory setup codex`: the SessionStart and UserPromptSubmit hooks in Codex CLI's
 * `hooks.json` and the MCP server as `[mcp_servers.iflow-memory]` in its `config.toml`
 * (`$CODEX_HOME`, else `~/.codex`; a project's `.codex/` with --project), or with --uninstall
 * without them. Codex runs a hook only once the user has trusted it (`/hooks`): the output says so.
 */
export function registerSetupCodexCommand(setup: Command, io: CliIO, setExitCode: (code: number) => void): void {
  setup
    .command("codex")
    .description("add the SessionStart and UserPromptSubmit hooks to Codex CLI's hooks.json and the MCP server to its config.toml (~/.codex, or the project's .codex/ with --project)")
    .option("--project <dir>", "install into DIR/.codex/ instead of your user config")
    .option("--no-mcp", "do not register the MCP server (search, store and feedback mid-session)")
    .option("--uninstall", "remove the hooks and the MCP server instead")
    .option("--dry-run", "print the resulting files; change nothing")
    .option("--json", "print what changed as JSON")
    .action(async (options: { project?: string; mcp?: boolean; uninstall?: boolean; dryRun?: boolean; json?: boolean }) => {
      const dir = options.project === undefined ? agentConfigDir("codex", io.env) : join(resolve(io.cwd, options.project), ".codex");
      const hooksPath = join(dir, "hooks.json");
      const configPath = join(dir, "config.toml");
      const mcp = options.mcp !== false;
      const dryRun = options.dryRun === true;
      const uninstall = options.uninstall === true;

      if (uninstall) {
        await uninstallCodex(io, { hooksPath, configPath, mcp, dryRun, json: options.json === true });
        setExitCode(0);
        return;
      }

      const server = defaultMcpServer();
      const codexServer = { command: server.command, args: server.args, env_vars: CODEX_MCP_ENV_VARS };
      // A config.toml that is not TOML is refused before anything is written: no half install.
      if (mcp) await updateTextFile(configPath, (text) => ({ ...addCodexMcpServer(text, codexServer, configPath), changed: false }), { dryRun: true });

      const hooks = await updateSettingsFile(
        hooksPath,
        (settings) => {
          let current = settings;
          const lines: string[] = [];
          for (const [event, hook] of EVENTS) {
            const command = defaultHookCommand(hook, mcp, { agent: "codex" });
            const change = addCodexHook(current, event, command);
            current = change.settings;
            if (change.outcome !== "unchanged") lines.push(`${change.outcome === "added" ? "Added" : "Updated"} the ${event} hook ${change.outcome === "added" ? "to" : "in"} ${hooksPath}:\n  ${command}`);
          }
          const message = lines.length > 0 ? lines.join("\n") : `Already installed in ${hooksPath}; nothing changed.`;
          return { settings: current, changed: lines.length > 0, message };
        },
        { dryRun },
      );

      const config = mcp
        ? await updateTextFile(
            configPath,
            (text) => {
              const change = addCodexMcpServer(text, codexServer, configPath);
              const message = {
                added: `Added the MCP server iflow-memory to ${configPath}:\n  [mcp_servers.iflow-memory] ${[server.command, ...server.args.map((arg) => `"${arg}"`)].join(" ")}`,
                updated: `Updated the MCP server iflow-memory in ${configPath}:\n  [mcp_servers.iflow-memory] ${[server.command, ...server.args.map((arg) => `"${arg}"`)].join(" ")}`,
                unchanged: `The MCP server is already registered in ${configPath}; nothing changed.`,
              }[change.outcome];
              return { text: change.text, changed: change.outcome !== "unchanged", message };
            },
            { dryRun },
          )
        : null;

      const notes = [
        ...(codexHooksDisabled(readOrNull(configPath)) ? [`hooks are turned off in ${configPath} ([features] hooks = false): set it to true, or Codex runs none of them.`] : []),
        "Codex runs a hook only once you have trusted it: start `codex`, type /hooks and trust the iflow-memory SessionStart and UserPromptSubmit hooks (until then Codex, and `codex exec` above all, skips them without a word).",
        ...(options.project === undefined ? [] : [`Codex reads ${dir} only in a project you have trusted.`]),
      ];
      if (options.json === true) {
        const report = {
          hooks: { path: hooksPath, changed: hooks.changed, message: hooks.message, backup: hooks.backup, ...(dryRun ? { dryRun: true, result: hooks.settings } : {}) },
          mcp: config === null ? null : { path: configPath, changed: config.changed, message: config.message, backup: config.backup, ...(dryRun ? { dryRun: true, result: config.text } : {}) },
          notes,
        };
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        if (dryRun) io.stdout.write(`${JSON.stringify(hooks.settings, null, 2)}\n(dry run: ${hooksPath} not changed; it would say: ${hooks.message})\n`);
        else io.stdout.write(`${hooks.message}${hooks.backup === null ? "" : `\nPrevious hooks kept in ${hooks.backup}.`}\n`);
        if (config !== null) {
          if (dryRun) io.stdout.write(`(dry run: ${configPath} not changed; it would say: ${config.message})\n`);
          else io.stdout.write(`${config.message}${config.backup === null ? "" : `\nPrevious Codex config kept in ${config.backup}.`}\n`);
        }
        for (const note of notes) io.stdout.write(`Note: ${note}\n`);
      }
      setExitCode(0);
    });
}

// Takes ours out of hooks.json and config.toml as `setup claude --uninstall` does out of Claude
// Code's files: a file put back from its backup when nothing else changed in it since the install,
// removed when setup made it and nothing else is in it, else written without ours; the backup goes.
async function uninstallCodex(io: CliIO, options: { hooksPath: string; configPath: string; mcp: boolean; dryRun: boolean; json: boolean }): Promise<void> {
  const { hooksPath, configPath, mcp, dryRun } = options;
  const removeServer = (text: string | null) => {
    const change = removeCodexMcpServer(text, configPath);
    const removed = change.outcome === "removed";
    return { text: change.text, changed: removed, empty: change.text.trim() === "", message: removed ? `Removed the iflow-memory MCP server from ${configPath}.` : `No iflow-memory MCP server in ${configPath}; nothing changed.` };
  };
  const restores = (backup: string, result: { text: string }) => sameCodexConfig(backup, result.text);
  // A config.toml that is not TOML is refused before anything is written: no half uninstall.
  if (mcp) await revertTextFile(configPath, removeServer, restores, { dryRun: true });
  const hooks = await revertSettingsFile(
    hooksPath,
    (before) => {
      // Codex reads Claude Code's hook layout: its removal is Claude Code's.
      const { settings, keptEmpty, removed } = removeCommandHooks(before, EVENTS.map(([event]) => event));
      return { settings, keptEmpty, changed: removed.length > 0, message: removedHooksMessage(removed, hooksPath) };
    },
    { dryRun },
  );
  const config = mcp ? await revertTextFile(configPath, removeServer, restores, { dryRun }) : null;
  if (options.json) {
    const report = (path: string, result: { changed: boolean; message: string; outcome: string; backupRemoved: string | null }, dryResult: unknown) => ({
      path,
      changed: result.changed,
      message: result.message,
      outcome: result.outcome,
      backupRemoved: result.backupRemoved,
      ...(dryRun ? { dryRun: true, result: dryResult } : {}),
    });
    io.stdout.write(`${JSON.stringify({ hooks: report(hooksPath, hooks, hooks.settings), mcp: config === null ? null : report(configPath, config, config.text), notes: [] }, null, 2)}\n`);
    return;
  }
  if (dryRun) io.stdout.write(`${JSON.stringify(hooks.settings, null, 2)}\n${dryRunNote(hooksPath, hooks.message, hooks.outcome)}`);
  else io.stdout.write(`${hooks.message}\n${revertNote(hooksPath, hooks.outcome, hooks.backupRemoved)}`);
  if (config === null) return;
  if (dryRun) io.stdout.write(dryRunNote(configPath, config.message, config.outcome));
  else io.stdout.write(`${config.message}\n${revertNote(configPath, config.outcome, config.backupRemoved)}`);
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
