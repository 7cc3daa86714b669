export { originalSessionPlan, planPromptRecall, planSessionStart, PROMPT_RECALL_MAX_CHARS, sessionQuery } from "./plan-session-injection.js";
export type { SessionPlan } from "./plan-session-injection.js";
export { readSessionLedger, recordInSessionLedger, SESSION_LEDGER_MAX_AGE_MS, sessionLedgerPath } from "./session-ledger.js";
export { createMemorySearcher, searchMemory } from "./search-memory.js";
export type { MemorySearcher, SearchMemoryOptions, SearchScope } from "./search-memory.js";
export { claimSessionEvent, SESSION_CLAIM_WINDOW_MS } from "./claim-session-event.js";
export { sharedRanking } from "./shared-ranking.js";
export type { SharedRanking } from "./shared-ranking.js";
