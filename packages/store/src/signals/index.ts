export { DEFAULT_SIGNALS_TIMEOUT_MS, gatherSessionSignals, gatherSessionSignalsNow, MAX_CHANGED_FILES, startSessionSignals } from "./gather-session-signals.js";
export type { GatherSessionSignalsOptions, PendingSessionSignals, SessionSignals } from "./gather-session-signals.js";
export type { ActiveFeature } from "./find-active-feature.js";
