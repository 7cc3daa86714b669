import { basename, join } from "node:path";
import type { InjectionPlan } from "@iflow-memory/ranker";
import { writeFileAtomically } from "./write-file-atomically.js";
import { isoTimestamp } from "./iso-timestamp.js";
import type { StoreWarning } from "./store-warning.js";

/** `.last-injection.json`: the original's fields, then ours. */
export interface TrackingRecord {
  timestamp: string;
  project: string;
  entries_injected: number;
  sources: { local: number; global: number };
  entry_names: string[];
  chars: number;
  estimated_tokens: number;
  dropped_for_budget: number;
  /** The SessionStart source, when the hook injected. */
  event?: string;
}

/** What tracking needs of an injection plan (a cached injection keeps just this). */
export type TrackedPlan = Pick<InjectionPlan, "block" | "sources" | "droppedForBudget"> & {
  /** `matchedTerms`: why relevance chose the entry (absent in today's order), for the injection history. */
  entries: ReadonlyArray<{ name: string; contentHash: string; matchedTerms?: string[] }>;
  /** What the block's index names (hash and title only), when it has one. */
  indexed?: ReadonlyArray<{ name: string; contentHash: string }>;
};

/** The tracking file inside a global store. */
export function trackingPath(globalStoreDir: string): string {
  return join(globalStoreDir, ".last-injection.json");
}

/** A project's name, as tracking and provenance record it: its root folder's name. */
export function projectName(projectRoot: string): string {
  return basename(projectRoot.replace(/[\\/]+$/, "")) || projectRoot;
}

/**
 * The tracking record of one injection.
 *
 * @example
 * createTrackingRecord({ plan, project: "webshop", now: new Date(), event: "startup" });
 * // { timestamp: "2026-11-22T10:00:00Z", project: "webshop", entries_injected: 20, … }
 */
export function createTrackingRecord(options: {
  plan: TrackedPlan;
  project: string;
  now: Date;
  event?: string | undefined;
}): TrackingRecord {
  const { plan } = options;
  return {
    timestamp: isoTimestamp(options.now),
    project: options.project,
    entries_injected: plan.entries.length,
    sources: { ...plan.sources },
    entry_names: plan.entries.map((entry) => entry.name),
    chars: plan.block.length,
    estimated_tokens: Math.ceil(plan.block.length / 4),
    dropped_for_budget: plan.droppedForBudget,
    ...(plan.indexed === undefined || plan.indexed.length === 0 ? {} : { entries_indexed: plan.indexed.length }),
    ...(options.event === undefined ? {} : { event: options.event }),
  };
}

/**
 * Replaces `<globalStoreDir>/.last-injection.json` atomically. Throws on I/O failure (with
 * `cause`); callers treat that as a warning, never as a reason to withhold the injection.
 */
export async function writeTracking(globalStoreDir: string, record: TrackingRecord): Promise<void> {
  const path = trackingPath(globalStoreDir);
  try {
    // Not fsynced: written at every session start, and losing it in a power cut loses nothing.
    await writeFileAtomically(path, `${JSON.stringify(record, null, 2)}\n`, { durable: false });
  } catch (cause) {
    // The system error under writeFileAtomically's own: its code is the whole reason here.
    const system = ((cause as { cause?: unknown }).cause ?? cause) as NodeJS.ErrnoException;
    throw new Error(`cannot write ${path}: ${system.code ?? system.message}`, { cause });
  }
}

/**
 * Records an injection in the tracking file when it selected something: the warning to report
 * when the file cannot be written (the injection itself is unaffected), else null.
 *
 * @example
 * const warning = await trackInjection({ globalStoreDir, project: "webshop", plan, now: new Date() });
 */
export async function trackInjection(options: { globalStoreDir: string; project: string; plan: TrackedPlan; now: Date; event?: string | undefined }): Promise<StoreWarning | null> {
  if (options.plan.entries.length === 0) return null;
  try {
    await writeTracking(options.globalStoreDir, createTrackingRecord(options));
    return null;
  } catch (error) {
    return { path: trackingPath(options.globalStoreDir), message: `tracking not written (${(error as Error).message}); the injection itself is unaffected` };
  }
}
