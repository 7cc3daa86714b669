export { DEFAULT_DEADLINE_MS, IN_PROCESS_MAX_BYTES, refreshCachedInjection, runSessionStartHook } from "./run-session-start-hook.js";
export type { HookIO, InjectionSources, PrepareInjection } from "./run-session-start-hook.js";
export type { HookInput } from "./read-stdin.js";
export { addSessionStartHook, isIflowMemoryHook, removeSessionStartHook } from "./add-session-start-hook.js";
export type { SettingsChange } from "./add-session-start-hook.js";
export { descriptorIO } from "./descriptor-io.js";
