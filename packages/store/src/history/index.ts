export { appendInjectionHistory, createHistoryRecord, HISTORY_FILE, HISTORY_MAX_BYTES, HISTORY_ROTATED_FILE } from "./append-injection-history.js";
export type { HistoryEntry, HistoryRecord } from "./append-injection-history.js";
export { readInjectionHistory } from "./read-injection-history.js";
export type { HistoryFilter } from "./read-injection-history.js";
