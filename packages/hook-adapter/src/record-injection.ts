import { createTrackingRecord, projectName, recordInSessionLedger, trackingPath, writeTracking, type TrackedPlan } from "@iflow-memory/store";
import type { HookEventInput, HookIO, InjectionSources } from "./hook-runtime.js";

/**
 * Records what a hook injected: the tracking file (`.last-injection.json`) and, when Claude Code
 * named the session, the session's ledger (so that its prompts are not given the same entries
 * again). A failure to record is a problem reported, never a reason to withhold the injection.
 */
export async function recordInjection(
  io: HookIO,
  sources: InjectionSources,
  input: HookEventInput,
  plan: TrackedPlan,
  event: string,
  problems: string[],
): Promise<void> {
  const record = createTrackingRecord({ plan, project: projectName(sources.projectRoot), now: (io.now ?? (() => new Date()))(), event });
  try {
    await writeTracking(sources.globalStoreDir, record);
  } catch (error) {
    problems.push(`${trackingPath(sources.globalStoreDir)}: tracking not written (${(error as Error).message}); the injection itself is unaffected`);
  }
  if (typeof input.session_id !== "string" || input.session_id === "") return;
  try {
    recordInSessionLedger(
      sources.globalStoreDir,
      input.session_id,
      plan.entries.map((entry) => entry.contentHash),
    );
  } catch (error) {
    problems.push(`the session's ledger was not written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); its prompts may repeat an entry`);
  }
}
