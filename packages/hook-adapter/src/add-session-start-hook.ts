import { isJsonObject } from "@iflow-memory/store";

/**
 * How our hook is recognised in a settings file: its command names iflow-memory (the CLI, the
 * package or the plugin folder) or runs this repository's hook bundle or CLI, so another tool's
 * session-start script is never taken for ours.
 */
export function isIflowMemoryHook(command: unknown): boolean {
  if (typeof command !== "string" || !/session-start|user-prompt-submit/.test(command)) return false;
  // iflow-memory named in the command, or this repository's own layout (a checkout of any name).
  return (
    /iflow-memory/.test(command) ||
    /hook-adapter[\\/]+dist[\\/]+(?:session-start|user-prompt-submit)\.cjs/.test(command) ||
    /cli[\\/]+dist[\\/]+bin\.js["']?\s+hook\s+(?:session-start|user-prompt-submit)/.test(command)
  );
}

/** The Claude Code hook events iflow-memory registers. */
export type HookEvent = "SessionStart" | "UserPromptSubmit";

export interface SettingsChange {
  settings: Record<string, unknown>;
  /** added: there was none; updated: ours pointed elsewhere; unchanged: already installed as asked. */
  outcome: "added" | "updated" | "unchanged";
}

/**
 * Claude Code settings with iflow-memory's SessionStart hook in them, merged: every other key
 * and hook is kept, our own entry (recognised by its command) is updated in place rather than
 * added twice. Pure: the settings object in, a new one out.
 *
 * @example
 * addSessionStartHook({ hooks: { PreToolUse: [...] } }, 'node "/opt/iflow-memory/session-start.cjs"');
 * // { settings: { hooks: { PreToolUse: [...], SessionStart: [{ hooks: [{ type: "command", command: "node …", timeout: 10 }] }] } }, outcome: "added" }
 */
export function addSessionStartHook(settings: Record<string, unknown>, command: string, timeoutSeconds = 10, event: HookEvent = "SessionStart"): SettingsChange {
  return addCommandHook(settings, event, { type: "command", command, timeout: timeoutSeconds });
}

/**
 * Settings in Claude Code's hook layout — `hooks.<event>` an array of groups `{ matcher?, hooks:
 * [{ type: "command", command, … }] }`, which Codex CLI's `hooks.json` and Gemini CLI's
 * `settings.json` share — with `hook` registered for `event`: our own entry (recognised by its
 * command) is updated in place, every other key, group and hook kept. Pure.
 *
 * @example
 * addCommandHook({}, "BeforeAgent", { name: "iflow-memory-prompt", type: "command", command: "node …", timeout: 10000 }).outcome; // "added"
 */
export function addCommandHook(settings: Record<string, unknown>, event: string, hook: Record<string, unknown> & { command: string }): SettingsChange {
  const hooks = isJsonObject(settings.hooks) ? settings.hooks : {};
  const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
  let outcome: SettingsChange["outcome"] = "added";
  const updatedGroups = groups.map((group) => {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) return group;
    return {
      ...group,
      hooks: group.hooks.map((existing: unknown) => {
        if (!isJsonObject(existing) || !isIflowMemoryHook(existing.command)) return existing;
        const merged = { ...existing, ...hook };
        if (outcome === "added") outcome = JSON.stringify(merged) === JSON.stringify(existing) ? "unchanged" : "updated";
        return merged;
      }),
    };
  });
  const eventGroups = outcome === "added" ? [...updatedGroups, { hooks: [hook] }] : updatedGroups;
  return { settings: { ...settings, hooks: { ...hooks, [event]: eventGroups } }, outcome };
}

/**
 * The settings without iflow-memory's hook; other hooks untouched. What the removal leaves empty
 * goes too — the group, the event's array, then `hooks` itself — so that an install and an
 * uninstall leave the settings as they were; `keepEmpty` keeps the empty array and `hooks`
 * (for settings that had them before the install).
 *
 * @example
 * removeSessionStartHook({ model: "opus", hooks: { SessionStart: [{ hooks: [ours] }] } });
 * // { settings: { model: "opus" }, outcome: "removed" }
 */
export function removeSessionStartHook(settings: Record<string, unknown>, event: HookEvent = "SessionStart", options: { keepEmpty?: boolean } = {}): { settings: Record<string, unknown>; outcome: "removed" | "absent" } {
  return removeCommandHook(settings, event, options);
}

/**
 * The settings without iflow-memory's hook for `event` (any agent's: the layout is shared), what
 * the removal leaves empty dropped as `removeSessionStartHook` drops it (`keepEmpty` keeps the
 * empty array and `hooks`).
 *
 * @example
 * removeCommandHook({ hooks: { BeforeAgent: [{ hooks: [ours] }] } }, "BeforeAgent"); // { settings: {}, outcome: "removed" }
 */
export function removeCommandHook(settings: Record<string, unknown>, event: string, options: { keepEmpty?: boolean } = {}): { settings: Record<string, unknown>; outcome: "removed" | "absent" } {
  const hooks = isJsonObject(settings.hooks) ? settings.hooks : {};
  if (!Array.isArray(hooks[event])) return { settings, outcome: "absent" };
  let removed = false;
  const eventGroups = (hooks[event] as unknown[]).flatMap((group) => {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) return [group];
    const kept = group.hooks.filter((hook: unknown) => !(isJsonObject(hook) && isIflowMemoryHook(hook.command)));
    if (kept.length === group.hooks.length) return [group];
    removed = true;
    return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
  });
  if (!removed) return { settings, outcome: "absent" };
  if (options.keepEmpty === true || eventGroups.length > 0) return { settings: { ...settings, hooks: { ...hooks, [event]: eventGroups } }, outcome: "removed" };
  const { [event]: _emptied, ...otherEvents } = hooks;
  if (Object.keys(otherEvents).length > 0) return { settings: { ...settings, hooks: otherEvents }, outcome: "removed" };
  const { hooks: _empty, ...rest } = settings;
  return { settings: rest, outcome: "removed" };
}

/**
 * The settings without iflow-memory's hooks for each of `events` (`removeCommandHook`): what the
 * removal leaves empty dropped (`settings`) and kept (`keptEmpty`, the settings an uninstall finds
 * in a backup made before the install when they held those empty), and the events they were
 * removed from, in order.
 *
 * @example
 * removeCommandHooks({ hooks: { SessionStart: [{ hooks: [ours] }] } }, ["SessionStart", "UserPromptSubmit"]);
 * // { settings: {}, keptEmpty: { hooks: { SessionStart: [] } }, removed: ["SessionStart"] }
 */
export function removeCommandHooks(settings: Record<string, unknown>, events: readonly string[]): { settings: Record<string, unknown>; keptEmpty: Record<string, unknown>; removed: string[] } {
  let current = settings;
  let keptEmpty = settings;
  const removed: string[] = [];
  for (const event of events) {
    const change = removeCommandHook(current, event);
    current = change.settings;
    keptEmpty = removeCommandHook(keptEmpty, event, { keepEmpty: true }).settings;
    if (change.outcome === "removed") removed.push(event);
  }
  return { settings: current, keptEmpty, removed };
}
