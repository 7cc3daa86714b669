export { DEFAULT_DEADLINE_MS, runSessionStartHook } from "./run-session-start-hook.js";
export type { HookIO } from "./run-session-start-hook.js";
export type { HookInput } from "./read-stdin.js";
export { addSessionStartHook, isIflowMemoryHook, removeSessionStartHook } from "./add-session-start-hook.js";
export type { SettingsChange } from "./add-session-start-hook.js";
export { descriptorIO } from "./descriptor-io.js";
