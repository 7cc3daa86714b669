export { DEFAULT_DEADLINE_MS, IN_PROCESS_MAX_BYTES, refreshCachedInjection, runHook } from "./hook-runtime.js";
export type { HookContext, HookEventInput, HookIO, InjectionSources, PrepareInjection } from "./hook-runtime.js";
export { runSessionStartHook } from "./run-session-start-hook.js";
export { runUserPromptSubmitHook } from "./run-user-prompt-submit-hook.js";
export type { HookInput } from "./read-stdin.js";
export { addSessionStartHook, isIflowMemoryHook, removeSessionStartHook } from "./add-session-start-hook.js";
export type { HookEvent, SettingsChange } from "./add-session-start-hook.js";
export { descriptorIO } from "./descriptor-io.js";
