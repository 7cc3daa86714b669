export { appendGlobalEntry, formatGlobalEntry, globalStoreHeader, recordMetadata, recordObservation } from "./global-store-text.js";
export type { GlobalEntryFields } from "./global-store-text.js";
export { PROMOTIONS_FILE, promoteEntries } from "./promote-entries.js";
export type { PromoteOptions, PromoteResult, PromoteSelection, PromotedEntry } from "./promote-entries.js";
