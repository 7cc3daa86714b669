import { existsSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { quoteForShell, type AgentName, type McpServerEntry } from "@iflow-memory/hook-adapter";

// The standalone MCP server bundle when it is installed beside the CLI (this repository's
// layout, or the plugin's), else the CLI itself.
export function defaultMcpServer(): McpServerEntry {
  const bundle = besideThisCommand(["../../mcp-server/dist/mcp-server.cjs", "../mcp/mcp-server.cjs"]);
  if (bundle !== null) return { type: "stdio", command: "node", args: [bundle] };
  return { type: "stdio", command: "node", args: [thisCommand(), "mcp"] };
}

/**
 * The hook command `setup` registers: the standalone hook bundle (fastest) when it is installed
 * beside the CLI, else the CLI itself; `--mcp` where the MCP server is registered beside it (the
 * block's index names its tools); `--agent NAME` for an agent other than Claude Code (the
 * dialect the hook speaks). Agents run the command through `sh -c`: the path is single-quoted, so
 * that an install folder named with `$(…)`, backticks or quotes is a path, never shell code. For a
 * Claude Code project's settings (`project`, often committed): a command that works on every
 * machine — under "$CLAUDE_PROJECT_DIR" when the install is inside the project, else
 * `iflow-memory` from the PATH.
 *
 * @example
 * defaultHookCommand("session-start", true); // "node '/opt/iflow-memory/packages/hook-adapter/dist/session-start.cjs' --mcp"
 */
export function defaultHookCommand(hook: "session-start" | "user-prompt-submit", mcp: boolean, options: { agent?: AgentName; project?: string } = {}): string {
  const agent = options.agent ?? "claude";
  const bundle = besideThisCommand([`../../hook-adapter/dist/${hook}.cjs`, `../hooks/${hook}.cjs`]);
  const flag = `${mcp ? " --mcp" : ""}${agent === "claude" ? "" : ` --agent ${agent}`}`;
  if (options.project !== undefined) {
    const inside = bundle === null ? null : relative(options.project, bundle);
    if (agent === "claude" && inside !== null && inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)) return `node "$CLAUDE_PROJECT_DIR"/${quoteForShell(inside)}${flag}`;
    return `iflow-memory hook ${hook}${flag}`;
  }
  if (bundle !== null) return `node ${quoteForShell(bundle)}${flag}`;
  return `node ${quoteForShell(thisCommand())} hook ${hook}${flag}`;
}

// The hook commands `setup <agent>` registers from this installation, with or without the MCP server.
export function ownHookCommands(agent: AgentName): string[] {
  return (["session-start", "user-prompt-submit"] as const).flatMap((hook) => [defaultHookCommand(hook, true, { agent }), defaultHookCommand(hook, false, { agent })]);
}

function besideThisCommand(paths: string[]): string | null {
  return paths.map((path) => fileURLToPath(new URL(path, import.meta.url))).find((path) => existsSync(path)) ?? null;
}

// The CLI's entry: bin.js beside this chunk, or the plugin's iflow-memory.cjs beside its run.mjs.
function thisCommand(): string {
  return besideThisCommand(["./bin.js", "./iflow-memory.cjs"]) ?? fileURLToPath(import.meta.url);
}
