import { hasErrorCode } from "./error-code.js";

/**
 * Whether a process with this id runs on this machine: what a lock or a claim left by a process
 * that was killed (its id gone from the process table) is told apart by. A process of another
 * user counts as running (EPERM); an id reused since is taken for the owner (rare; the caller's
 * age rule covers it).
 *
 * @example
 * processAlive(process.pid); // true
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !hasErrorCode(error, "ESRCH");
  }
}
