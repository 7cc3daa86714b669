import { homedir } from "node:os";
import { join } from "node:path";
import type { AgentName } from "@iflow-memory/hook-adapter";

/** The user's home: $HOME, else the system's idea of it. */
export function userHome(env: Record<string, string | undefined>): string {
  return env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
}

/**
 * Where an agent keeps its user config: `~/.claude`, `$CODEX_HOME` (else `~/.codex`), `~/.gemini`.
 *
 * @example
 * agentConfigDir("codex", { HOME: "/home/ada" }); // "/home/ada/.codex"
 */
export function agentConfigDir(agent: AgentName, env: Record<string, string | undefined>): string {
  if (agent === "codex" && env.CODEX_HOME !== undefined && env.CODEX_HOME !== "") return env.CODEX_HOME;
  return join(userHome(env), `.${agent}`);
}
