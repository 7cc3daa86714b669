// The small bank both evaluations also ask: the knowledge bank as it was in February (41 entries,
// 548 terms, against April's 265 and 1,472). 38 of its entries are unchanged in April and 3 were
// edited under the same name, so the April labels cover it without a new judgement.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const CORPORA = resolve(dirname(fileURLToPath(import.meta.url)), "../test/fixtures/corpora");

/** Where the February bank's project is; it has no global store. */
export const FEBRUARY_BANK = { projectRoot: join(CORPORA, "iflow-kb-2026-02"), globalStoreDir: join(CORPORA, "iflow-kb-2026-02/no-global-store") };

/**
 * April's grades (content hash → grade) restricted to the entries of another bank: an entry takes
 * the grade of the April entry with its hash, else of the one with its name (edited since).
 *
 * @example
 * gradesOnBank(gradesOf(context), februaryCandidates, aprilCandidates); // Map { hash → grade }
 */
export function gradesOnBank(grades, bankEntries, aprilEntries) {
  const aprilHashByName = new Map(aprilEntries.map((entry) => [entry.name, entry.contentHash]));
  return new Map(
    bankEntries.flatMap((entry) => {
      const grade = grades.get(entry.contentHash) ?? grades.get(aprilHashByName.get(entry.name));
      return grade === undefined ? [] : [[entry.contentHash, grade]];
    }),
  );
}
