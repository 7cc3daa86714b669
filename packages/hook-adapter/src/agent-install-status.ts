import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, parseJsonText, type HealthCheck } from "@iflow-memory/store";
import type { AgentName } from "./agent-dialect.js";
import { isIflowMemoryHook } from "./add-session-start-hook.js";
import { registeredCodexMcpServer } from "./codex-config.js";

/** What of iflow-memory an agent's user config holds. */
export interface AgentInstallStatus {
  agent: AgentName;
  /** The hook events that run one of our hooks. */
  hooks: string[];
  /** The command of each of those hooks, as registered. */
  commands: string[];
  /** Whether our MCP server is registered. */
  mcp: boolean;
  /** Config files that could not be read as what they should be (they install nothing). */
  unreadable: string[];
}

/**
 * What iflow-memory has installed into an agent's user config in `configDir` (`~/.claude`,
 * `~/.codex`, `~/.gemini`): the events of our hooks and whether our MCP server is there. Claude
 * Code's MCP server is in `~/.claude.json`, beside `configDir`. Missing files install nothing.
 *
 * @example
 * agentInstallStatus("codex", "/home/ada/.codex");
 * // { agent: "codex", hooks: ["SessionStart", "UserPromptSubmit"], commands: [...], mcp: true, unreadable: [] }
 */
export function agentInstallStatus(agent: AgentName, configDir: string): AgentInstallStatus {
  const status: AgentInstallStatus = { agent, hooks: [], commands: [], mcp: false, unreadable: [] };
  const hooksFile = join(configDir, agent === "codex" ? "hooks.json" : "settings.json");
  // Gemini CLI reads its settings with comments.
  const settings = readJson(hooksFile, status.unreadable, agent === "gemini");
  const hooks = settings?.hooks;
  if (isJsonObject(hooks)) {
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups) {
        if (!isJsonObject(group) || !Array.isArray(group.hooks)) continue;
        for (const hook of group.hooks as unknown[]) {
          if (!isJsonObject(hook) || !isIflowMemoryHook(hook.command)) continue;
          if (!status.hooks.includes(event)) status.hooks.push(event);
          status.commands.push(hook.command as string);
        }
      }
    }
  }
  if (agent === "gemini") status.mcp = isJsonObject(settings?.mcpServers) && isJsonObject(settings.mcpServers["iflow-memory"]);
  if (agent === "claude") {
    const config = readJson(join(configDir, "..", ".claude.json"), status.unreadable);
    status.mcp = isJsonObject(config?.mcpServers) && isJsonObject(config.mcpServers["iflow-memory"]);
  }
  if (agent === "codex") {
    const path = join(configDir, "config.toml");
    const text = readText(path);
    status.mcp = text !== null && registeredCodexMcpServer(text) !== null;
  }
  return status;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function readJson(path: string, unreadable: string[], comments = false): Record<string, unknown> | null {
  const text = readText(path);
  if (text === null) return null;
  const read = parseJsonText(text, { comments });
  if ("value" in read && isJsonObject(read.value)) return read.value;
  unreadable.push(path);
  return null;
}

const AGENT_TITLES: Record<AgentName, string> = { claude: "Claude Code", codex: "Codex CLI", gemini: "Gemini CLI" };

/**
 * `doctor`'s check of iflow-memory in Codex CLI or Gemini CLI: what is installed in `configDir`,
 * and whether its hooks run this installation (one of `ownCommands`, the commands `setup` would
 * register now); a warning when one points elsewhere (an older checkout, a moved install) or a
 * config file cannot be read.
 *
 * @example
 * diagnoseAgentInstall("codex", "/home/ada/.codex", ['node "/opt/iflow-memory/session-start.cjs" --mcp --agent codex', …]).status; // "ok"
 */
export function diagnoseAgentInstall(agent: "codex" | "gemini", configDir: string, ownCommands: readonly string[], exists: (path: string) => boolean): HealthCheck {
  const name = `${AGENT_TITLES[agent].toLowerCase()} install`;
  if (!exists(configDir)) return { name, status: "ok", details: [`${AGENT_TITLES[agent]} not found here (no ${configDir})`] };
  const status = agentInstallStatus(agent, configDir);
  const unreadable = status.unreadable.map((path) => `${path} cannot be read as JSON: nothing of it is checked (fix it by hand)`);
  if (status.hooks.length === 0 && !status.mcp) {
    return { name, status: unreadable.length > 0 ? "warning" : "ok", details: [`not installed into ${AGENT_TITLES[agent]} (iflow-memory setup ${agent})`, ...unreadable] };
  }
  const elsewhere = status.commands.filter((command) => !ownCommands.includes(command));
  const details = [
    `hooks: ${status.hooks.length === 0 ? "none" : status.hooks.join(", ")}; MCP server: ${status.mcp ? "registered" : "not registered"} (${configDir})`,
    ...elsewhere.map((command) => `a hook runs another installation: ${command}; \`iflow-memory setup ${agent}\` points it at this one`),
    ...(agent === "codex" && status.hooks.length > 0 ? ["Codex runs the hooks only once trusted: codex, /hooks"] : []),
    ...unreadable,
  ];
  return { name, status: elsewhere.length > 0 || unreadable.length > 0 ? "warning" : "ok", details };
}
