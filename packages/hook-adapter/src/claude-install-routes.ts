import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type HealthCheck } from "@iflow-memory/store";
import { isIflowMemoryHook } from "./add-session-start-hook.js";

/** Where iflow-memory is installed into Claude Code, by route: the settings files that say so. */
export interface ClaudeInstallRoutes {
  /** Settings files whose `enabledPlugins` turns the iflow-memory plugin on (`/plugin install`). */
  plugin: string[];
  /** Settings files with an iflow-memory hook (`iflow-memory setup claude`). */
  setup: string[];
}

/** The name a marketplace's iflow-memory plugin is enabled under: `iflow-memory@<marketplace>`. */
const PLUGIN_KEY = /^iflow-memory@/;

/**
 * The settings files Claude Code reads for a project — the user's (`~/.claude/settings.json`) and
 * the project's (`.claude/settings.json`, `.claude/settings.local.json`) — that install
 * iflow-memory, by route. Both routes at once make Claude Code run two of our hooks per event (one
 * injects, the other stays silent): `setup claude` and `doctor` say so. A file that is missing or
 * not valid JSON installs nothing.
 *
 * @example
 * findClaudeInstallRoutes({ home: "/home/ada", projectRoot: "/work/webshop" });
 * // { plugin: ["/home/ada/.claude/settings.json"], setup: ["/work/webshop/.claude/settings.json"] }
 */
export function findClaudeInstallRoutes(options: { home: string; projectRoot?: string | undefined }): ClaudeInstallRoutes {
  const files = [join(options.home, ".claude", "settings.json")];
  if (options.projectRoot !== undefined) files.push(join(options.projectRoot, ".claude", "settings.json"), join(options.projectRoot, ".claude", "settings.local.json"));
  const routes: ClaudeInstallRoutes = { plugin: [], setup: [] };
  for (const path of [...new Set(files)]) {
    const settings = readSettings(path);
    if (settings === null) continue;
    const enabled = settings.enabledPlugins;
    if (isJsonObject(enabled) && Object.entries(enabled).some(([key, value]) => PLUGIN_KEY.test(key) && value !== false)) routes.plugin.push(path);
    if (hasOurHook(settings)) routes.setup.push(path);
  }
  return routes;
}

function hasOurHook(settings: Record<string, unknown>): boolean {
  const hooks = settings.hooks;
  if (!isJsonObject(hooks)) return false;
  return Object.values(hooks).some(
    (groups) => Array.isArray(groups) && groups.some((group) => isJsonObject(group) && Array.isArray(group.hooks) && group.hooks.some((hook: unknown) => isJsonObject(hook) && isIflowMemoryHook(hook.command))),
  );
}

function readSettings(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * `doctor`'s check of how iflow-memory is installed into Claude Code: ok with one route (or none:
 * nothing to check), a problem with both — the plugin and `setup claude` — since Claude Code then
 * runs two of our hooks per event.
 *
 * @example
 * diagnoseClaudeInstall({ home, projectRoot }).status; // "ok"
 */
export function diagnoseClaudeInstall(options: { home: string; projectRoot?: string | undefined }): HealthCheck {
  const routes = findClaudeInstallRoutes(options);
  const details = [
    ...routes.plugin.map((path) => `plugin enabled in ${path}`),
    ...routes.setup.map((path) => `hooks of iflow-memory setup claude in ${path}`),
  ];
  if (routes.plugin.length > 0 && routes.setup.length > 0) {
    details.push("both routes are installed: Claude Code runs two of our hooks per event (one injects, the other stays silent); keep one: `claude plugin uninstall iflow-memory@iflow-memory`, or `iflow-memory setup claude --uninstall`");
    return { name: "claude code install", status: "problem", details };
  }
  return { name: "claude code install", status: "ok", details: details.length > 0 ? details : ["not installed into Claude Code (iflow-memory setup claude, or the plugin)"] };
}
