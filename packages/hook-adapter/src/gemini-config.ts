import { addCommandHook, removeCommandHook, type SettingsChange } from "./add-session-start-hook.js";
import { MCP_SERVER_NAME } from "./claude-mcp-config.js";
import { isJsonObject } from "@iflow-memory/store";

/** The Gemini CLI hook events iflow-memory registers, in `settings.json`. */
export const GEMINI_HOOK_EVENTS = { "session-start": "SessionStart", prompt: "BeforeAgent" } as const;

type GeminiHookEvent = (typeof GEMINI_HOOK_EVENTS)[keyof typeof GEMINI_HOOK_EVENTS];

/** A stdio MCP server as Gemini CLI's `mcpServers` holds it. */
export interface GeminiMcpServer {
  command: string;
  args: string[];
}

/**
 * Gemini CLI settings with iflow-memory's hook for `event` (`SessionStart` or `BeforeAgent`):
 * `hooks.<event>` → groups → `{ name, type: "command", command, timeout }`, the timeout in
 * milliseconds (Gemini's unit). Every other setting, group and hook is kept; ours (recognised by
 * its command) is updated in place. Pure.
 *
 * @example
 * addGeminiHook({ theme: "GitHub" }, "BeforeAgent", 'node "/opt/iflow-memory/user-prompt-submit.cjs" --agent gemini');
 * // { settings: { theme: "GitHub", hooks: { BeforeAgent: [{ hooks: [{ name: "iflow-memory", type: "command", command: "node …", timeout: 10000 }] }] } }, outcome: "added" }
 */
export function addGeminiHook(settings: Record<string, unknown>, event: GeminiHookEvent, command: string): SettingsChange {
  return addCommandHook(settings, event, { name: MCP_SERVER_NAME, type: "command", command, timeout: 10_000 });
}

/**
 * Gemini CLI settings without iflow-memory's hook for `event`, and without an event or a `hooks`
 * that only ours filled. Pure.
 *
 * @example
 * removeGeminiHook(settings, "SessionStart").outcome; // "removed"
 */
export function removeGeminiHook(settings: Record<string, unknown>, event: GeminiHookEvent): { settings: Record<string, unknown>; outcome: "removed" | "absent" } {
  return removeCommandHook(settings, event);
}

/**
 * Gemini CLI settings with iflow-memory's MCP server in `mcpServers` (other servers and keys
 * kept; keys the user added to ours, such as `trust` or `timeout`, kept too). Pure.
 *
 * @example
 * addGeminiMcpServer({}, { command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"] });
 * // { settings: { mcpServers: { "iflow-memory": { command: "node", args: [...] } } }, outcome: "added" }
 */
export function addGeminiMcpServer(settings: Record<string, unknown>, server: GeminiMcpServer): SettingsChange {
  const servers = isJsonObject(settings.mcpServers) ? settings.mcpServers : {};
  const current = servers[MCP_SERVER_NAME];
  if (isJsonObject(current) && current.command === server.command && JSON.stringify(current.args) === JSON.stringify(server.args)) return { settings, outcome: "unchanged" };
  const entry = isJsonObject(current) ? { ...current, ...server } : server;
  return { settings: { ...settings, mcpServers: { ...servers, [MCP_SERVER_NAME]: entry } }, outcome: isJsonObject(current) ? "updated" : "added" };
}

/**
 * Gemini CLI settings without iflow-memory's MCP server, and without an `mcpServers` only ours
 * filled (`keepEmpty` keeps it, empty). Pure.
 *
 * @example
 * removeGeminiMcpServer(settings).outcome; // "removed", or "absent"
 */
export function removeGeminiMcpServer(settings: Record<string, unknown>, options: { keepEmpty?: boolean } = {}): { settings: Record<string, unknown>; outcome: "removed" | "absent" } {
  const servers = isJsonObject(settings.mcpServers) ? settings.mcpServers : {};
  if (!(MCP_SERVER_NAME in servers)) return { settings, outcome: "absent" };
  const { [MCP_SERVER_NAME]: _removed, ...rest } = servers;
  if (Object.keys(rest).length > 0 || options.keepEmpty === true) return { settings: { ...settings, mcpServers: rest }, outcome: "removed" };
  const { mcpServers: _servers, ...others } = settings;
  return { settings: others, outcome: "removed" };
}
