export { DEFAULT_SIGNALS_TIMEOUT_MS, gatherSessionSignals, MAX_CHANGED_FILES } from "./gather-session-signals.js";
export type { GatherSessionSignalsOptions, SessionSignals } from "./gather-session-signals.js";
export type { ActiveFeature } from "./find-active-feature.js";
