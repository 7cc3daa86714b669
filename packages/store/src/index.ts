export { closestConfigKey, CONFIG_KEYS, configPath, configWithoutFile, DEFAULT_CONFIG, isMemoryConfig, MAX_INJECTION_CHARS, readConfig, SESSION_EVENTS } from "./read-config.js";
export type { ConfigRead, InjectionRanking, MemoryConfig } from "./read-config.js";
export { findProjectRoot } from "./find-project-root.js";
export { asciiJson } from "./ascii-json.js";
export { readGlobalStore, resolveGlobalStoreDir } from "./read-global-store.js";
export { knowledgeBankDir, readKnowledgeBank } from "./read-knowledge-bank.js";
export type { KnowledgeBankRead } from "./read-knowledge-bank.js";
export type { EntriesRead, ReadEntryFilesOptions } from "./read-entry-files.js";
export type { EntryFileCache } from "./caches/index.js";
export { injectMemory } from "./inject-memory.js";
export { growInjection, GROWTH_MAX_CANDIDATES, injectionGrowth, type InjectionGrowth } from "./inject-growth.js";
export { readAppendedEntries, type ReadMark } from "./read-entry-files.js";
export type { InjectMemoryOptions, InjectMemoryResult } from "./inject-memory.js";
export { readMemorySources } from "./read-memory-sources.js";
export type { MemorySources } from "./read-memory-sources.js";
export { readTextFile, readTextFileSync } from "./read-text-file.js";
export type { TextFileResult } from "./read-text-file.js";
export { MAX_FILE_BYTES, readUserFile, readUserFileSync } from "./read-user-file.js";
export type { UserFileOptions, UserFileResult } from "./read-user-file.js";
export { formatWarning } from "./store-warning.js";
export type { StoreWarning } from "./store-warning.js";
export { writeFileAtomically } from "./write-file-atomically.js";
export { CACHE_MAX_AGE_MS, CODE_CACHE_MAGIC, codeCacheFile, codeCacheKey, pruneStoreCache, type CodeCacheNode } from "./caches/index.js";
export { createTrackingRecord, projectName, trackInjection, trackingPath, writeTracking } from "./write-tracking.js";
export type { TrackedPlan, TrackingRecord } from "./write-tracking.js";
export { COMMIT_JOURNAL, commitFiles, recoverCommit } from "./commit-files.js";
export type { FileWrite } from "./commit-files.js";
export { StoreError } from "./store-error.js";
export type { StoreErrorCode } from "./store-error.js";
export { LOCK_FILE, withStoreLock } from "./with-store-lock.js";
export type { StoreLockOptions } from "./with-store-lock.js";
export { extendSessionInjection, GROWN_ENTRIES_MAX } from "./extend-session-injection.js";
export { plainSessionInjection, prepareSessionInjection, SESSION_INDEX_MAX_LINES, SESSION_INDEX_SHARE, SESSION_MATCHES_IN_FULL, sessionIndex, trackedPlan } from "./prepare-session-injection.js";
export type { KnownConfig, SessionInjection } from "./prepare-session-injection.js";
export { decodeRankingCache, encodeRankingCache } from "./caches/index.js";
export type { RankingData } from "./caches/index.js";
export {
  claimCacheRefresh,
  entryFileCache,
  forgetCachedInjection,
  handOverCacheRefresh,
  injectionCachePath,
  fingerprintChangedFile,
  injectionFingerprint,
  planCachePath,
  rankingCachePath,
  readCachedInjection,
  readCachedInjectionOrEarlier,
  readCachedPlan,
  readCachedRanking,
  REFRESH_CLAIM_MS,
  releaseCacheRefresh,
  storeCacheDir,
  writeCachedInjection,
  writeCachedPlan,
} from "./caches/index.js";
export type { InjectionFingerprint, RefreshClaim } from "./caches/index.js";
export { SETTLE_MS } from "./settle-ms.js";
export { MEMORY_CACHE_FORMAT, MEMORY_CACHE_SALT } from "./caches/index.js";
export { DEFAULT_LESSONS_DIR, LESSONS_STATE_FILE, readLessons, updateLessons } from "./lessons-store.js";
export type { LessonsChange, LessonsRead, LessonsState } from "./lessons-store.js";
export { addLesson, auditCheck, decayLessonsInDirectory, extractLessonsFromEvents, forgetLesson, injectLessons, readEffectiveness } from "./manage-lessons.js";
export type { ExtractReport } from "./manage-lessons.js";
export { gatherProjectFacts } from "./gather-project-facts.js";
export { appendGlobalEntry, formatGlobalEntry, globalStoreHeader, recordMetadata, recordObservation } from "./promotion/index.js";
// What the global store's Source lines hold is read as ranking reads it.
export { sourceItems } from "@iflow-memory/ranker";
export type { GlobalEntryFields } from "./promotion/index.js";
export { PROMOTIONS_FILE, promoteEntries } from "./promotion/index.js";
export type { PromoteOptions, PromoteResult, PromoteSelection, PromotedEntry } from "./promotion/index.js";
export { ARCHIVE_FILE, contestGlobalEntries, findEntries, findOneEntry, forgetGlobalEntry, listEntries, readLastInjection, tagGlobalEntry } from "./manage-global-store.js";
export type { EntryReach, ListScope } from "./manage-global-store.js";
export { collectStats, diagnoseMemory } from "./diagnose-memory.js";
export type { HealthCheck, MemoryStats } from "./diagnose-memory.js";
export { exportRules, GENERATED_MARKER } from "./export-rules.js";
export { updateSettingsFile } from "./update-settings-file.js";
export { isJsonObject, parseJsonText } from "./parse-settings-object.js";
export { revertSettingsFile, revertTextFile } from "./revert-settings-file.js";
export type { SettingsRevertOutcome } from "./revert-settings-file.js";
export { removeStoreCache } from "./caches/index.js";
export { updateTextFile } from "./update-text-file.js";
export { isoTimestamp } from "./iso-timestamp.js";
export { originalSessionPlan, planPromptRecall, planSessionStart, PROMPT_RECALL_MAX_CHARS, sessionQuery, readSessionLedger, recordInSessionLedger, SESSION_LEDGER_MAX_AGE_MS, sessionLedgerPath } from "./relevance/index.js";
export { claimSessionEvent, createMemorySearcher, SESSION_CLAIM_WINDOW_MS, searchMemory, sharedRanking } from "./relevance/index.js";
export type { MemorySearcher, SearchMemoryOptions, SearchScope, SessionPlan, SharedRanking } from "./relevance/index.js";
export { DEFAULT_SIGNALS_TIMEOUT_MS, gatherSessionSignals, gatherSessionSignalsNow, MAX_CHANGED_FILES, startSessionSignals } from "./signals/index.js";
export type { ActiveFeature, GatherSessionSignalsOptions, PendingSessionSignals, SessionSignals } from "./signals/index.js";
export { appendInjectionHistory, createHistoryRecord, HISTORY_FILE, HISTORY_MAX_BYTES, HISTORY_ROTATED_FILE, readInjectionHistory } from "./history/index.js";
export type { HistoryEntry, HistoryFilter, HistoryRecord } from "./history/index.js";
export { recordFeedback } from "./feedback.js";
export type { RecordFeedbackOptions } from "./feedback.js";
export { FEEDBACK_FILE, MAX_FEEDBACK_NOTE, readFeedback } from "./read-feedback.js";
export type { FeedbackRecord, FeedbackSummary } from "./read-feedback.js";
export { MAX_MEMORY_DESCRIPTION, MAX_MEMORY_NAME, storeMemory } from "./store-memory.js";
export type { NewMemory, StoreMemoryOptions, StoreMemoryResult } from "./store-memory.js";
export { shortHash } from "./short-hash.js";
