import { appendInjectionHistory, createHistoryRecord, createTrackingRecord, projectName, recordInSessionLedger, trackingPath, writeTracking, type TrackedPlan } from "@iflow-memory/store";
import type { HookEventInput, HookIO, InjectionSources } from "./hook-runtime.js";

/**
 * Records what a hook injected: the tracking file (`.last-injection.json`), one line of the
 * injection history, and, when Claude Code named the session, the session's ledger (so that its
 * prompts are not given the same entries again). A failure to record is a problem reported,
 * never a reason to withhold the injection.
 */
export async function recordInjection(
  io: HookIO,
  sources: InjectionSources,
  input: HookEventInput,
  plan: TrackedPlan & { ranking: "relevance" | "original" },
  event: string,
  problems: string[],
): Promise<void> {
  const now = (io.now ?? (() => new Date()))();
  const project = projectName(sources.projectRoot);
  const session = typeof input.session_id === "string" && input.session_id !== "" ? input.session_id : null;
  const record = createTrackingRecord({ plan, project, now, event });
  try {
    await writeTracking(sources.globalStoreDir, record);
  } catch (error) {
    problems.push(`${trackingPath(sources.globalStoreDir)}: tracking not written (${(error as Error).message}); the injection itself is unaffected`);
  }
  try {
    appendInjectionHistory(sources.globalStoreDir, createHistoryRecord({ plan, project, session, event, ranking: plan.ranking, now, agent: io.agent ?? "claude" }));
  } catch (error) {
    problems.push(`the injection history was not written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the injection itself is unaffected`);
  }
  if (session === null) return;
  try {
    recordInSessionLedger(
      sources.globalStoreDir,
      session,
      plan.entries.map((entry) => entry.contentHash),
    );
  } catch (error) {
    problems.push(`the session's ledger was not written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); its prompts may repeat an entry`);
  }
}
