import { closeSync, renameSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { openCreating } from "../write-file-atomically.js";
import { sessionFileName, sessionsFolder } from "./session-ledger.js";

/**
 * How long a claim on a session's event holds. Hooks of one event start together (Claude Code
 * runs matching hooks at once), so a second one comes within moments; a later event of the same
 * name in the same session (a second compaction, a resume the next day) is injected again.
 */
export const SESSION_CLAIM_WINDOW_MS = 60_000;

/**
 * Claims the right to inject for one event of one session, so that when two of our hooks run for
 * it — the plugin's and the one `setup claude` registered, started together — exactly one
 * injects. The claim is a marker made with an exclusive create beside the session's ledger (pruned
 * with it): of two processes, only one can make it. A marker older than
 * `SESSION_CLAIM_WINDOW_MS` belongs to an earlier event of the same name and is taken over. True
 * also when no claim can be made (no cache folder): an injection given twice is better than none.
 *
 * @example
 * if (!claimSessionEvent(store, input.session_id, "startup")) return ""; // another hook injects
 */
export function claimSessionEvent(globalStoreDir: string, sessionId: string, event: string, now: () => number = Date.now): boolean {
  const path = join(sessionsFolder(globalStoreDir), `${sessionFileName(sessionId)}.${event.replace(/[^A-Za-z0-9_-]/g, "_")}.claim`);
  for (let attempt = 0; attempt < 3; attempt++) {
    // Made: this process injects; not possible here (no cache folder): it injects too.
    if (createClaim(path) !== "exists") return true;
    const held = statSync(path, { throwIfNoEntry: false });
    if (held === undefined) continue;
    if (now() - held.mtimeMs < SESSION_CLAIM_WINDOW_MS) return false;
    // An old claim: moved aside (a rename succeeds for one process only), then looked at where it
    // went — a fresh one means another process took the old one over first, and it injects.
    const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    try {
      renameSync(path, aside);
    } catch {
      continue;
    }
    const moved = statSync(aside, { throwIfNoEntry: false });
    try {
      unlinkSync(aside);
    } catch {
      // gone already
    }
    if (moved !== undefined && now() - moved.mtimeMs < SESSION_CLAIM_WINDOW_MS) return false;
  }
  return false;
}

// The claim made with an exclusive create (its folder made when missing).
function createClaim(path: string): "made" | "exists" | "failed" {
  try {
    closeSync(openCreating(path));
    return "made";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EEXIST" ? "exists" : "failed";
  }
}
