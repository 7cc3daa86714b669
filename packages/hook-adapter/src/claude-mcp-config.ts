import { isJsonObject } from "@iflow-memory/store";

/** The name iflow-memory's MCP server is registered under in Claude Code's config. */
export const MCP_SERVER_NAME = "iflow-memory";

/** A stdio MCP server as Claude Code's config holds it. */
export interface McpServerEntry {
  type: "stdio";
  command: string;
  args: string[];
}

/**
 * Claude Code's own config (`~/.claude.json`) with iflow-memory's MCP server registered: at user
 * scope (the top-level `mcpServers`, every project) or, with `project`, at local scope
 * (`projects[project].mcpServers`). Every other key is kept. Pure: the config in, a new one out.
 *
 * @example
 * addMcpServer({ numStartups: 3 }, { type: "stdio", command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"] });
 * // { settings: { numStartups: 3, mcpServers: { "iflow-memory": { type: "stdio", … } } }, outcome: "added" }
 */
export function addMcpServer(config: Record<string, unknown>, entry: McpServerEntry, project?: string): { settings: Record<string, unknown>; outcome: "added" | "updated" | "unchanged" } {
  const holder = project === undefined ? config : objectAt(objectAt(config, "projects"), project);
  const servers = objectAt(holder, "mcpServers");
  const current = servers[MCP_SERVER_NAME];
  if (JSON.stringify(current) === JSON.stringify(entry)) return { settings: config, outcome: "unchanged" };
  const nextHolder = { ...holder, mcpServers: { ...servers, [MCP_SERVER_NAME]: entry } };
  return { settings: place(config, nextHolder, project), outcome: current === undefined ? "added" : "updated" };
}

/**
 * The config without iflow-memory's MCP server (at user scope, or at local scope for `project`).
 * What the removal leaves empty goes too — `mcpServers`, and for a project its entry and then
 * `projects` — unless `keepEmpty` (for a config that had them before the install).
 *
 * @example
 * removeMcpServer({ numStartups: 3, mcpServers: { "iflow-memory": server } });
 * // { settings: { numStartups: 3 }, outcome: "removed" }
 */
export function removeMcpServer(config: Record<string, unknown>, project?: string, options: { keepEmpty?: boolean } = {}): { settings: Record<string, unknown>; outcome: "removed" | "absent" } {
  const holder = project === undefined ? config : objectAt(objectAt(config, "projects"), project);
  const servers = objectAt(holder, "mcpServers");
  if (!(MCP_SERVER_NAME in servers)) return { settings: config, outcome: "absent" };
  const { [MCP_SERVER_NAME]: _removed, ...rest } = servers;
  if (options.keepEmpty === true || Object.keys(rest).length > 0) return { settings: place(config, { ...holder, mcpServers: rest }, project), outcome: "removed" };
  const { mcpServers: _emptied, ...holderRest } = holder;
  if (project === undefined || Object.keys(holderRest).length > 0) return { settings: place(config, holderRest, project), outcome: "removed" };
  const { [project]: _emptyProject, ...otherProjects } = objectAt(config, "projects");
  if (Object.keys(otherProjects).length > 0) return { settings: { ...config, projects: otherProjects }, outcome: "removed" };
  const { projects: _noProjects, ...configRest } = config;
  return { settings: configRest, outcome: "removed" };
}

/** iflow-memory's MCP server as registered in a config, or null. */
export function registeredMcpServer(config: Record<string, unknown>, project?: string): unknown {
  const holder = project === undefined ? config : objectAt(objectAt(config, "projects"), project);
  return objectAt(holder, "mcpServers")[MCP_SERVER_NAME] ?? null;
}

function place(config: Record<string, unknown>, holder: Record<string, unknown>, project: string | undefined): Record<string, unknown> {
  if (project === undefined) return holder;
  return { ...config, projects: { ...objectAt(config, "projects"), [project]: holder } };
}

function objectAt(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const found = value[key];
  return isJsonObject(found) ? found : {};
}
