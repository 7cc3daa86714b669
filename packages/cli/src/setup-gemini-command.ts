import { join, resolve } from "node:path";
import { addGeminiHook, addGeminiMcpServer, removeCommandHooks, removeGeminiMcpServer } from "@iflow-memory/hook-adapter";
import { revertSettingsFile, updateSettingsFile } from "@iflow-memory/store";
import type { Command } from "commander";
import { agentConfigDir } from "./agent-homes.js";
import { defaultHookCommand, defaultMcpServer } from "./hook-commands.js";
import type { CliIO } from "./io.js";
import { dryRunNote, revertNote } from "./revert-note.js";

const EVENTS = [
  ["SessionStart", "session-start"],
  ["BeforeAgent", "user-prompt-submit"],
] as const;

/**
 * `iflow-memory setup gemini`: the SessionStart and BeforeAgent hooks and the MCP server in
 * Gemini CLI's `~/.gemini/settings.json` (a project's `.gemini/settings.json` with --project), or
 * with --uninstall without them.
 */
export function registerSetupGeminiCommand(setup: Command, io: CliIO, setExitCode: (code: number) => void): void {
  setup
    .command("gemini")
    .description("add the SessionStart and BeforeAgent hooks and the MCP server to Gemini CLI's settings (~/.gemini/settings.json, or the project's with --project)")
    .option("--project <dir>", "install into DIR/.gemini/settings.json instead of your user settings")
    .option("--no-mcp", "do not register the MCP server (search, store and feedback mid-session)")
    .option("--uninstall", "remove the hooks and the MCP server instead")
    .option("--dry-run", "print the resulting settings; change nothing")
    .option("--json", "print what changed as JSON")
    .action(async (options: { project?: string; mcp?: boolean; uninstall?: boolean; dryRun?: boolean; json?: boolean }) => {
      const dir = options.project === undefined ? agentConfigDir("gemini", io.env) : join(resolve(io.cwd, options.project), ".gemini");
      const path = join(dir, "settings.json");
      const mcp = options.mcp !== false;
      const dryRun = options.dryRun === true;
      const uninstall = options.uninstall === true;
      if (uninstall) {
        await uninstallGemini(io, { path, mcp, dryRun, json: options.json === true });
        setExitCode(0);
        return;
      }
      const server = defaultMcpServer();
      let hooksOff = false;

      const result = await updateSettingsFile(
        path,
        (settings) => {
          let current = settings;
          const lines: string[] = [];
          for (const [event, hook] of EVENTS) {
            const command = defaultHookCommand(hook, mcp, { agent: "gemini" });
            const change = addGeminiHook(current, event, command);
            current = change.settings;
            if (change.outcome !== "unchanged") lines.push(`${change.outcome === "added" ? "Added" : "Updated"} the ${event} hook ${change.outcome === "added" ? "to" : "in"} ${path}:\n  ${command}`);
          }
          if (mcp) {
            const change = addGeminiMcpServer(current, { command: server.command, args: server.args });
            current = change.settings;
            if (change.outcome !== "unchanged") lines.push(`${change.outcome === "added" ? "Added" : "Updated"} the MCP server iflow-memory ${change.outcome === "added" ? "to" : "in"} ${path}:\n  ${[server.command, ...server.args.map((arg) => `"${arg}"`)].join(" ")}`);
          }
          const config = current.hooksConfig;
          hooksOff = config !== null && typeof config === "object" && (config as Record<string, unknown>).enabled === false;
          const message = lines.length > 0 ? lines.join("\n") : `Already installed in ${path}; nothing changed.`;
          return { settings: current, changed: lines.length > 0, message };
        },
        // Gemini CLI reads its settings with comments: a file that has some keeps them.
        { dryRun, comments: true },
      );

      const notes = [
        ...(hooksOff ? [`hooks are turned off in ${path} ("hooksConfig": { "enabled": false }): set it to true, or Gemini CLI runs none of them.`] : []),
        ...(options.project === undefined ? [] : [`with folder trust on (security.folderTrust.enabled), Gemini CLI reads ${path} only once you trust the folder.`]),
        "Gemini CLI reads its settings when it starts: restart the sessions that are running.",
      ];
      if (options.json === true) {
        const report = { settings: { path, changed: result.changed, message: result.message, backup: result.backup, ...(dryRun ? { dryRun: true, result: result.settings } : {}) }, notes };
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        // The file as it would be written: with its comments, where it has some.
        if (dryRun) io.stdout.write(`${result.text.replace(/\n?$/, "\n")}(dry run: ${path} not changed; it would say: ${result.message})\n`);
        else io.stdout.write(`${result.message}${result.backup === null ? "" : `\nPrevious settings kept in ${result.backup}.`}\n`);
        for (const note of notes) io.stdout.write(`Note: ${note}\n`);
      }
      setExitCode(0);
    });
}

// Takes ours out of settings.json as `setup claude --uninstall` does out of Claude Code's: the
// file put back from its backup when nothing else changed in it since the install, removed when
// setup made it and nothing else is in it, else written without ours (its comments kept); the
// backup goes.
async function uninstallGemini(io: CliIO, options: { path: string; mcp: boolean; dryRun: boolean; json: boolean }): Promise<void> {
  const { path, mcp, dryRun } = options;
  const result = await revertSettingsFile(
    path,
    (before) => {
      const hooks = removeCommandHooks(before, EVENTS.map(([event]) => event));
      let { settings: current, keptEmpty } = hooks;
      const removed = hooks.removed.map((event) => `the ${event} hook`);
      if (mcp) {
        const change = removeGeminiMcpServer(current);
        current = change.settings;
        keptEmpty = removeGeminiMcpServer(keptEmpty, { keepEmpty: true }).settings;
        if (change.outcome === "removed") removed.push("the MCP server");
      }
      const message = removed.length > 0 ? `Removed ${removed.join(", ").replace(/, ([^,]*)$/, " and $1")} of iflow-memory from ${path}.` : `No iflow-memory hook or MCP server in ${path}; nothing changed.`;
      return { settings: current, keptEmpty, changed: removed.length > 0, message };
    },
    // Gemini CLI reads its settings with comments: a file that has some keeps them.
    { dryRun, comments: true },
  );
  if (options.json) {
    const report = { path, changed: result.changed, message: result.message, outcome: result.outcome, backupRemoved: result.backupRemoved, ...(dryRun ? { dryRun: true, result: result.settings } : {}) };
    io.stdout.write(`${JSON.stringify({ settings: report, notes: [] }, null, 2)}\n`);
  } else if (dryRun) io.stdout.write(`${result.text.replace(/\n?$/, "\n")}${dryRunNote(path, result.message, result.outcome)}`);
  else io.stdout.write(`${result.message}\n${revertNote(path, result.outcome, result.backupRemoved)}`);
}
