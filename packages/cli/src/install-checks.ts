import { existsSync } from "node:fs";
import type { HealthCheck } from "@iflow-memory/store";
import { agentConfigDir } from "./agent-homes.js";
import { ownHookCommands } from "./hook-commands.js";

/**
 * `doctor`'s checks of how iflow-memory is installed into each agent: Claude Code's routes, and
 * what Codex CLI and Gemini CLI have and whether it runs this installation. The hook adapter is
 * loaded here, when asked, so that `ui` starts without it.
 */
export async function installChecks(env: Record<string, string | undefined>, home: string, projectRoot: string | undefined): Promise<HealthCheck[]> {
  const { diagnoseAgentInstall, diagnoseClaudeInstall } = await import("@iflow-memory/hook-adapter");
  return [
    diagnoseClaudeInstall({ home, projectRoot }),
    ...(["codex", "gemini"] as const).map((agent) => diagnoseAgentInstall(agent, agentConfigDir(agent, env), ownHookCommands(agent), existsSync)),
  ];
}
