import { join } from "node:path";
import { COMMIT_JOURNAL, isCommitRename, pendingAppends, type PendingAppend } from "./commit-files.js";
import { readTextFile } from "./read-text-file.js";
import { statOrNull } from "./stat-or-null.js";

const ATTEMPTS = 8;

/**
 * Reads files of a directory that `commitFiles` changes together, without its lock, so that the
 * result is all old or all new, never a mix: a commit whose journal is there (in progress, or
 * left by a writer that was killed) is read as done — each file from its committed temporary
 * when that is still there — and a read during which any of the files (or the journal) changed
 * is done again (after a short wait, a few times at most). `read` gets the file to read, the
 * target it stands for, and the bytes the commit appends to it, if any: the file as committed is
 * then its first `at` bytes followed by those (`readTextFile`'s `appended`). With `inThread`, the
 * stats and the journal are read in the calling thread (`EntryFileCache.inThread`).
 *
 * @example
 * const [antiPatterns, heuristics, patterns] = await readCommittedFiles(store, paths, (path, target, appended) => readTextFile(path, { appended }));
 */
export async function readCommittedFiles<T>(
  directory: string,
  paths: readonly string[],
  read: (path: string, target: string, appended: PendingAppend | undefined) => Promise<T>,
  options: { inThread?: boolean } = {},
): Promise<T[]> {
  const journalPath = join(directory, COMMIT_JOURNAL);
  const inThread = { inThread: options.inThread === true };
  let results: T[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // Without `inThread`, asynchronous stats and reads: a mount that stopped answering holds
    // libuv's threads, not the caller's, which goes on with its other work.
    const before = await identities([journalPath, ...paths], inThread);
    const committed = await pendingChanges(journalPath, directory, inThread);
    results = await Promise.all(paths.map(async (path) => {
      const from = committed.renames.get(path);
      if (from !== undefined && (await statOrNull(from, inThread)) !== null) return read(from, path, undefined);
      return read(path, path, committed.appends.get(path));
    }));
    if ((await identities([journalPath, ...paths], inThread)) === before) return results;
    // A commit came in between: the next attempt waits a little, at random, so that a reader
    // beside a writer that commits again and again falls between two commits.
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 2 * (attempt + 1)));
  }
  return results;
}

async function identities(paths: readonly string[], inThread: { inThread: boolean }): Promise<string> {
  const infos = await Promise.all(paths.map((path) => statOrNull(path, inThread)));
  return infos.map((info) => (info === null ? "-" : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`)).join("\n");
}

// The journal's renames, target → committed temporary (only a commit's own, `isCommitRename`,
// whatever else a journal says), and its appends.
async function pendingChanges(journalPath: string, directory: string, inThread: { inThread: boolean }): Promise<{ renames: Map<string, string>; appends: Map<string, PendingAppend> }> {
  const renames = new Map<string, string>();
  const file = await readTextFile(journalPath, inThread);
  if (!("text" in file)) return { renames, appends: new Map() };
  let journal: { renames?: unknown };
  try {
    journal = JSON.parse(file.text) as { renames?: unknown };
  } catch {
    // a journal that does not parse never reached its rename
    return { renames, appends: new Map() };
  }
  for (const item of Array.isArray(journal?.renames) ? (journal.renames as unknown[]) : []) if (isCommitRename(item, directory)) renames.set(item.to, item.from);
  return { renames, appends: pendingAppends(journal, directory) };
}
