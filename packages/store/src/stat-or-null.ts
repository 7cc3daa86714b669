import { stat, statSync, type BigIntStats } from "node:fs";

/**
 * `stat(path, { bigint: true })` of node's callback API as a promise, null where nothing can be
 * stated (missing, unreadable folder): as asynchronous as `fs/promises`' `stat`, without
 * loading fs/promises, which costs a session start after an edit some 1.3 ms. With `inThread`,
 * stated in the calling thread (`statOrNullSync`; see `EntryFileCache.inThread`).
 *
 * @example
 * (await statOrNull("docs/knowledge-bank/patterns.md"))?.mtimeNs;
 */
export function statOrNull(path: string, options: { inThread?: boolean } = {}): Promise<BigIntStats | null> {
  if (options.inThread === true) return Promise.resolve(statOrNullSync(path));
  return new Promise((resolve) => stat(path, { bigint: true }, (error, info) => resolve(error === null ? info : null)));
}

/**
 * `statOrNull` in the calling thread.
 *
 * @example
 * statOrNullSync("docs/knowledge-bank/patterns.md")?.mtimeNs;
 */
export function statOrNullSync(path: string): BigIntStats | null {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
