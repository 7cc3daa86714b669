import { readFileSync } from "node:fs";
import { join } from "node:path";
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
  const settings = readJson(hooksFile, status.unreadable);
  const hooks = settings?.hooks;
  if (isObject(hooks)) {
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups) {
        if (!isObject(group) || !Array.isArray(group.hooks)) continue;
        for (const hook of group.hooks as unknown[]) {
          if (!isObject(hook) || !isIflowMemoryHook(hook.command)) continue;
          if (!status.hooks.includes(event)) status.hooks.push(event);
          status.commands.push(hook.command as string);
        }
      }
    }
  }
  if (agent === "gemini") status.mcp = isObject(settings?.mcpServers) && isObject(settings.mcpServers["iflow-memory"]);
  if (agent === "claude") {
    const config = readJson(join(configDir, "..", ".claude.json"), status.unreadable);
    status.mcp = isObject(config?.mcpServers) && isObject(config.mcpServers["iflow-memory"]);
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

function readJson(path: string, unreadable: string[]): Record<string, unknown> | null {
  const text = readText(path);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return value;
  } catch {
    // reported below
  }
  unreadable.push(path);
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
