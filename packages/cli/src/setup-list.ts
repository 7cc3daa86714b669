import { existsSync } from "node:fs";
import { AGENT_NAMES, agentInstallStatus, type AgentName } from "@iflow-memory/hook-adapter";
import { agentConfigDir } from "./agent-homes.js";
import type { CliIO } from "./io.js";

const WHAT: Record<AgentName, string> = {
  claude: "the SessionStart and UserPromptSubmit hooks in settings.json, the MCP server in ~/.claude.json",
  codex: "the SessionStart and UserPromptSubmit hooks in hooks.json, the MCP server in config.toml (then trust the hooks: codex, /hooks)",
  gemini: "the SessionStart and BeforeAgent hooks and the MCP server in settings.json",
};

/**
 * `iflow-memory setup` without an agent: the agents whose config folder is on this machine,
 * what `setup <agent>` would install into each, and what is installed already.
 */
export function listAgents(io: CliIO): void {
  const agents = AGENT_NAMES.map((agent) => {
    const dir = agentConfigDir(agent, io.env);
    const found = existsSync(dir);
    const status = found ? agentInstallStatus(agent, dir) : null;
    return { agent, configDir: dir, found, command: `iflow-memory setup ${agent}`, installs: WHAT[agent], installed: status };
  });
  const lines = agents.map(({ agent, configDir, found, command, installs, installed }) => {
    if (!found) return `${agent}: not found (no ${configDir})`;
    const now =
      installed === null || (installed.hooks.length === 0 && !installed.mcp)
        ? "nothing of iflow-memory installed yet"
        : `installed: ${installed.hooks.length === 0 ? "no hooks" : `${installed.hooks.join(" and ")} hook${installed.hooks.length > 1 ? "s" : ""}`}, ${installed.mcp ? "the MCP server" : "no MCP server"}`;
    const unreadable = installed === null || installed.unreadable.length === 0 ? "" : `\n  unreadable, left alone: ${installed.unreadable.join(", ")}`;
    return `${agent}: ${configDir} (${now})\n  \`${command}\` adds ${installs}${unreadable}`;
  });
  io.stdout.write(`${lines.join("\n")}\n`);
}
