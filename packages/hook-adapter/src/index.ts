export { DEFAULT_DEADLINE_MS, runSessionStartHook } from "./run-session-start-hook.js";
export type { HookIO } from "./run-session-start-hook.js";
export type { HookInput } from "./read-stdin.js";
