import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AgentName, McpServerEntry } from "@iflow-memory/hook-adapter";

// The standalone MCP server bundle when it is installed beside the CLI (this repository's
// layout, or the plugin's), else the CLI itself.
export function defaultMcpServer(): McpServerEntry {
  const bundle = besideThisCommand(["../../mcp-server/dist/mcp-server.cjs", "../mcp/mcp-server.cjs"]);
  if (bundle !== null) return { type: "stdio", command: "node", args: [bundle] };
  return { type: "stdio", command: "node", args: [thisCommand(), "mcp"] };
}

// The standalone hook bundle (fastest) when it is installed beside the CLI, else the CLI itself;
// for an agent other than Claude Code, `--agent NAME` says which dialect the hook speaks.
export function defaultHookCommand(hook: "session-start" | "user-prompt-submit", mcp: boolean, agent: AgentName = "claude"): string {
  const bundle = besideThisCommand([`../../hook-adapter/dist/${hook}.cjs`, `../hooks/${hook}.cjs`]);
  const flag = `${mcp ? " --mcp" : ""}${agent === "claude" ? "" : ` --agent ${agent}`}`;
  if (bundle !== null) return `node "${bundle}"${flag}`;
  return `node "${thisCommand()}" hook ${hook}${flag}`;
}

// The hook commands `setup <agent>` registers from this installation, with or without the MCP server.
export function ownHookCommands(agent: AgentName): string[] {
  return (["session-start", "user-prompt-submit"] as const).flatMap((hook) => [defaultHookCommand(hook, true, agent), defaultHookCommand(hook, false, agent)]);
}

function besideThisCommand(paths: string[]): string | null {
  return paths.map((path) => fileURLToPath(new URL(path, import.meta.url))).find((path) => existsSync(path)) ?? null;
}

// The CLI's entry: bin.js beside this chunk, or this file itself where the CLI is one file (the plugin's).
function thisCommand(): string {
  return besideThisCommand(["./bin.js"]) ?? fileURLToPath(import.meta.url);
}
