import { isDeepStrictEqual } from "node:util";
import { parse, patch } from "@decimalturn/toml-patch";
import { isJsonObject, StoreError } from "@iflow-memory/store";
import { addCommandHook, removeCommandHook, type SettingsChange } from "./add-session-start-hook.js";
import { MCP_SERVER_NAME } from "./claude-mcp-config.js";

/** The Codex CLI hook events iflow-memory registers, in `hooks.json`. */
export const CODEX_HOOK_EVENTS = { "session-start": "SessionStart", prompt: "UserPromptSubmit" } as const;

/** A stdio MCP server as Codex CLI's `[mcp_servers.NAME]` table holds it. */
export interface CodexMcpServer {
  command: string;
  args: string[];
  /** Variables of Codex's environment passed on to the server (Codex passes only a few by default). */
  env_vars?: string[];
}

/**
 * Codex starts an MCP server with a short list of its environment's variables: the store's own
 * (`IFLOW_MEMORY_HOME`) is passed on too, so that the server reads and writes the store the hooks
 * use (which get all of Codex's environment).
 */
export const CODEX_MCP_ENV_VARS = ["IFLOW_MEMORY_HOME"];

/** A config.toml's text after a change, and what the change was (an addition's outcomes, `Outcome` narrowed, or a removal's). */
export interface TomlChange<Outcome extends "added" | "updated" | "unchanged" | "removed" | "absent" = "added" | "updated" | "unchanged" | "removed" | "absent"> {
  text: string;
  outcome: Outcome;
}

/**
 * Codex CLI's `hooks.json` with iflow-memory's hook for `event`: Codex reads Claude Code's hook
 * layout there (`hooks.<event>` → groups → `{ type: "command", command, timeout }` in seconds), so
 * the merge is Claude Code's. Pure.
 *
 * @example
 * addCodexHook({}, "SessionStart", 'node "/opt/iflow-memory/session-start.cjs" --agent codex').outcome; // "added"
 */
export function addCodexHook(hooksFile: Record<string, unknown>, event: "SessionStart" | "UserPromptSubmit", command: string): SettingsChange {
  return addCommandHook(hooksFile, event, { type: "command", command, timeout: 10 });
}

/**
 * Codex CLI's `hooks.json` without iflow-memory's hook for `event`, and without an event or a
 * `hooks` that only ours filled. Pure.
 *
 * @example
 * removeCodexHook(hooksFile, "UserPromptSubmit").outcome; // "removed"
 */
export function removeCodexHook(hooksFile: Record<string, unknown>, event: "SessionStart" | "UserPromptSubmit"): { settings: Record<string, unknown>; outcome: "removed" | "absent" } {
  return removeCommandHook(hooksFile, event);
}

/**
 * Codex CLI's `config.toml` text with iflow-memory's MCP server as `[mcp_servers.iflow-memory]`.
 * The user's comments and layout are kept: a new server is a table appended at the end (the rest
 * of the file byte for byte), an existing one is patched in place (keys the user added to it,
 * such as `env` or `startup_timeout_sec`, kept). `text` null or empty: a new file. Throws a
 * `StoreError` for text that is not TOML (the file is then left alone). Pure.
 *
 * @example
 * addCodexMcpServer('model = "gpt-5.5"\n', { command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"] }).text;
 * // 'model = "gpt-5.5"\n\n[mcp_servers.iflow-memory]\ncommand = "node"\nargs = ["/opt/iflow-memory/mcp-server.cjs"]\n'
 */
export function addCodexMcpServer(text: string | null, server: CodexMcpServer, path = "config.toml"): TomlChange<"added" | "updated" | "unchanged"> {
  const source = text ?? "";
  const config = parseCodexConfig(source, path);
  const servers = isJsonObject(config.mcp_servers) ? config.mcp_servers : {};
  const current = servers[MCP_SERVER_NAME];
  if (isJsonObject(current)) {
    if (sameServer(current, server)) return { text: source, outcome: "unchanged" };
    return { text: patch(source, { ...config, mcp_servers: { ...servers, [MCP_SERVER_NAME]: { ...current, ...server } } }), outcome: "updated" };
  }
  const table = `[mcp_servers.${MCP_SERVER_NAME}]\ncommand = ${tomlString(server.command)}\nargs = [${server.args.map(tomlString).join(", ")}]\n${server.env_vars === undefined ? "" : `env_vars = [${server.env_vars.map(tomlString).join(", ")}]\n`}`;
  const separator = source.trim() === "" ? "" : source.endsWith("\n\n") ? "" : source.endsWith("\n") ? "\n" : "\n\n";
  const appended = `${source.trim() === "" ? "" : source}${separator}${table}`;
  // An inline `mcp_servers = { … }` cannot take a table after it: patch it there instead.
  if (parsesAs(appended, server)) return { text: appended, outcome: "added" };
  return { text: patch(source, { ...config, mcp_servers: { ...servers, [MCP_SERVER_NAME]: server } }), outcome: "added" };
}

/**
 * Codex CLI's `config.toml` text without iflow-memory's MCP server (and without an
 * `[mcp_servers]` only ours filled); everything else as it was. Pure.
 *
 * @example
 * removeCodexMcpServer(text).outcome; // "removed", or "absent"
 */
export function removeCodexMcpServer(text: string | null, path = "config.toml"): TomlChange<"removed" | "absent"> {
  const source = text ?? "";
  const config = parseCodexConfig(source, path);
  const servers = isJsonObject(config.mcp_servers) ? config.mcp_servers : {};
  if (!(MCP_SERVER_NAME in servers)) return { text: source, outcome: "absent" };
  const { [MCP_SERVER_NAME]: _removed, ...rest } = servers;
  const { mcp_servers: _servers, ...others } = config;
  const next = Object.keys(rest).length > 0 ? { ...config, mcp_servers: rest } : others;
  return { text: patch(source, next).replace(/\n{3,}/g, "\n\n"), outcome: "removed" };
}

/**
 * Whether a Codex CLI `config.toml` as it was before the install (`backup`) holds what removing
 * iflow-memory's MCP server gave (`text`): the same values, whatever the layout, an
 * `[mcp_servers]` that only ours would have filled counted as none. Null when `backup` is not TOML.
 *
 * @example
 * sameCodexConfig('model = "gpt-5.5"\n\n[mcp_servers]\n', 'model = "gpt-5.5"\n'); // true
 */
export function sameCodexConfig(backup: string, text: string): boolean | null {
  let before: Record<string, unknown>;
  try {
    const value: unknown = parse(backup);
    if (!isJsonObject(value)) return null;
    before = value;
  } catch {
    return null;
  }
  const { mcp_servers: servers, ...others } = before;
  // The parser's tables have no prototype: so has the one compared with them.
  const comparable = isJsonObject(servers) && Object.keys(servers).length === 0 ? Object.assign(Object.create(null) as Record<string, unknown>, others) : before;
  return isDeepStrictEqual(comparable, parse(text));
}

/**
 * iflow-memory's MCP server as a Codex CLI `config.toml` registers it, or null (also for text
 * that is not TOML).
 *
 * @example
 * registeredCodexMcpServer('[mcp_servers.iflow-memory]\ncommand = "node"\n'); // { command: "node" }
 */
export function registeredCodexMcpServer(text: string | null): Record<string, unknown> | null {
  try {
    const servers = parse(text ?? "").mcp_servers as unknown;
    return isJsonObject(servers) && isJsonObject(servers[MCP_SERVER_NAME]) ? servers[MCP_SERVER_NAME] : null;
  } catch {
    return null;
  }
}

/**
 * Whether a Codex CLI `config.toml` turns hooks off (`[features] hooks = false`, or the older
 * `codex_hooks = false`); false for text that is not TOML.
 *
 * @example
 * codexHooksDisabled("[features]\nhooks = false\n"); // true
 */
export function codexHooksDisabled(text: string | null): boolean {
  try {
    const features = parse(text ?? "").features as unknown;
    return isJsonObject(features) && (features.hooks === false || features.codex_hooks === false);
  } catch {
    return false;
  }
}

function parseCodexConfig(text: string, path: string): Record<string, unknown> {
  try {
    const value: unknown = parse(text);
    if (isJsonObject(value)) return value;
  } catch (error) {
    const first = ((error as Error).message.split("\n")[0] ?? "").trim();
    const at = /\((\d+), (\d+)\)/.exec(first);
    const reason = at === null ? first : `at line ${at[1]}, column ${at[2]}`;
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is not valid TOML (${reason}); fix it by hand, then run setup again`, { cause: error });
  }
  throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is not a TOML table; fix it by hand, then run setup again`);
}

function parsesAs(text: string, server: CodexMcpServer): boolean {
  try {
    const servers = parse(text).mcp_servers as unknown;
    const ours = isJsonObject(servers) ? servers[MCP_SERVER_NAME] : undefined;
    return isJsonObject(ours) && sameServer(ours, server);
  } catch {
    return false;
  }
}

function sameServer(current: Record<string, unknown>, server: CodexMcpServer): boolean {
  return (Object.keys(server) as Array<keyof CodexMcpServer>).every((key) => JSON.stringify(current[key]) === JSON.stringify(server[key]));
}

// A TOML basic string: JSON's escapes (\" \\ \n \t \uXXXX …) are TOML's too.
function tomlString(value: string): string {
  return JSON.stringify(value);
}
