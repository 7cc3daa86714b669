import { join } from "node:path";
import { COMMIT_JOURNAL } from "./commit-files.js";
import { readTextFile } from "./read-text-file.js";
import { statOrNull } from "./stat-or-null.js";

const ATTEMPTS = 4;

/**
 * Reads files of a directory that `commitFiles` changes together, without its lock, so that the
 * result is all old or all new, never a mix: a commit whose journal is there (in progress, or
 * left by a writer that was killed) is read as done — each file from its committed temporary
 * when that is still there — and a read during which any of the files (or the journal) changed
 * is done again (a few times at most). `read` gets the file to read and the target it stands for.
 *
 * @example
 * const [antiPatterns, heuristics, patterns] = await readCommittedFiles(store, paths, (path) => readTextFile(path));
 */
export async function readCommittedFiles<T>(directory: string, paths: readonly string[], read: (path: string, target: string) => Promise<T>): Promise<T[]> {
  const journalPath = join(directory, COMMIT_JOURNAL);
  let results: T[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // Asynchronous stats and reads: a mount that stopped answering holds libuv's threads, never
    // the hook's, so that its deadline still ends the wait.
    const before = await identities([journalPath, ...paths]);
    const committed = await pendingRenames(journalPath);
    results = await Promise.all(paths.map(async (path) => {
      const from = committed.get(path);
      return read(from !== undefined && (await statOrNull(from)) !== null ? from : path, path);
    }));
    if ((await identities([journalPath, ...paths])) === before) return results;
  }
  return results;
}

async function identities(paths: readonly string[]): Promise<string> {
  const infos = await Promise.all(paths.map(statOrNull));
  return infos.map((info) => (info === null ? "-" : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`)).join("\n");
}

// The journal's renames, target → committed temporary; only temporaries beside their targets
// (`<target>.iflow-<16 hex>.tmp`) are taken, whatever else a journal says.
async function pendingRenames(journalPath: string): Promise<Map<string, string>> {
  const renames = new Map<string, string>();
  const file = await readTextFile(journalPath);
  if (!("text" in file)) return renames;
  try {
    const journal = JSON.parse(file.text) as { renames?: unknown };
    if (!Array.isArray(journal.renames)) return renames;
    for (const item of journal.renames as Array<{ from?: unknown; to?: unknown }>) {
      if (typeof item?.from !== "string" || typeof item.to !== "string") continue;
      if (item.from.startsWith(`${item.to}.iflow-`) && /^\.iflow-[0-9a-f]{16}\.tmp$/.test(item.from.slice(item.to.length))) renames.set(item.to, item.from);
    }
  } catch {
    // a journal that does not parse never reached its rename
  }
  return renames;
}
