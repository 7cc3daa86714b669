import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serializeEntry } from "@iflow-memory/parser";
import { buildRelevanceIndex, entryOrders, injectionCandidates, rankEntries, SEARCH_FLOOR, type RankedEntry } from "@iflow-memory/ranker";
import { copyCorpus, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { recordFeedback } from "../feedback.js";
import { injectionCachePath, injectionFingerprint, rankingCachePath, readCachedRanking, writeCachedInjection } from "../caches/injection-cache.js";
import { decodeRankingCache } from "../caches/ranking-cache-file.js";
import { MEMORY_CACHE_SALT } from "../caches/memory-cache-salt.js";
import { prepareSessionInjection } from "../prepare-session-injection.js";
import { readFeedback } from "../read-feedback.js";
import { readMemorySources } from "../read-memory-sources.js";
import { projectName } from "../write-tracking.js";
import { createMemorySearcher } from "./search-memory.js";
import { sharedRanking } from "./shared-ranking.js";

// The files count as settled (unchanged for two seconds) from this clock on, as a user's are.
const later = () => Date.now() + 5_000;

const QUERIES = [
  "the embedding call times out and we retry it",
  "where should diagnostics be emitted for a retried helper",
  "tests pass locally but the migration fails in CI",
  "hook cannot find files when Claude runs from a subdirectory",
  "reviewer keeps flagging the same issue in every iteration",
  "plan the order of implementation phases",
  "center a div with CSS grid",
];

/** A copy of the real 2026-04 bank and of the global-store example. */
async function realBank(): Promise<{ projectRoot: string; globalStoreDir: string }> {
  const base = makeTempDir();
  const projectRoot = copyCorpus("iflow-kb-2026-04", base);
  const globalStoreDir = copyCorpus("global-store-example", base);
  return { projectRoot, globalStoreDir };
}

/** A search as it was before the cache was shared: the files read, the candidates indexed, ranked. */
async function searchedAfresh(sources: { projectRoot: string; globalStoreDir: string }, query: string): Promise<RankedEntry[]> {
  const read = await readMemorySources({ ...sources, includeGlobal: true });
  const candidates = injectionCandidates({ local: read.local, global: read.global, project: projectName(sources.projectRoot) });
  return rankEntries(candidates, { text: query }, { index: buildRelevanceIndex(candidates), orders: entryOrders(candidates), feedback: readFeedback(sources.globalStoreDir), floor: SEARCH_FLOOR });
}

/** What a search shows of its results: everything an MCP answer or a viewer page is made of. */
function shown(results: readonly RankedEntry[]) {
  return results.map((result) => ({ ...JSON.parse(JSON.stringify(result.entry)), text: serializeEntry(result.entry), score: result.score, matchedTerms: result.matchedTerms }));
}

const fingerprintOf = (sources: { projectRoot: string; globalStoreDir: string }, salt = MEMORY_CACHE_SALT) => injectionFingerprint({ ...sources, salt, now: later() });

describe("sharedRanking", () => {
  it("reads the files and caches them when there is no cache, then reads the cache, and both rank every query as the files read afresh do", async () => {
    const sources = await realBank();
    const { entries } = await prepareSessionInjection(sources).then((injection) => ({ entries: injection.ranking!.candidates }));
    await recordFeedback({ ...sources, hash: entries[3]!.contentHash, helpful: true });
    await recordFeedback({ ...sources, hash: entries[40]!.contentHash, helpful: false });

    const fromFiles = createMemorySearcher({ ...sources, now: later });
    const filesAnswers = await Promise.all(QUERIES.map((query) => fromFiles.search(query, { limit: -1, scope: "all" })));
    await fromFiles.saved();
    expect(existsSync(rankingCachePath(injectionCachePath(sources.globalStoreDir, sources.projectRoot)))).toBe(true);
    expect((await sharedRanking({ ...sources, fingerprint: fingerprintOf(sources) })).from).toBe("cache");

    const fromCache = createMemorySearcher({ ...sources, now: later });
    for (const [at, query] of QUERIES.entries()) {
      const afresh = await searchedAfresh(sources, query);
      const cached = await fromCache.search(query, { limit: -1, scope: "all" });
      expect(shown(cached.results)).toEqual(shown(afresh));
      expect(shown(filesAnswers[at]!.results)).toEqual(shown(afresh));
      expect(cached.warnings).toEqual(filesAnswers[at]!.warnings);
    }
  });

  it("keeps what it holds across a vote, which still moves the next search", async () => {
    const sources = await realBank();
    const searcher = createMemorySearcher({ ...sources, now: later });
    const before = await searcher.search(QUERIES[0]!, { limit: -1, scope: "all" });
    const second = before.results[1]!.entry;
    for (let vote = 0; vote < 5; vote++) await recordFeedback({ ...sources, hash: second.contentHash, helpful: true });
    const after = await searcher.search(QUERIES[0]!, { limit: -1, scope: "all" });
    expect(shown(after.results)).toEqual(shown(await searchedAfresh(sources, QUERIES[0]!)));
    const scoreOf = (results: readonly RankedEntry[]) => results.find((result) => result.entry.contentHash === second.contentHash)!.score;
    expect(scoreOf(after.results)).toBeGreaterThan(scoreOf(before.results));
    // The same entries, not read again: a vote changes none of them.
    const held = new Set(before.results.map((result) => result.entry));
    expect(after.results.every((result) => held.has(result.entry))).toBe(true);
  });

  it("reads a bank file that changed again, in the next search", async () => {
    const sources = await realBank();
    const searcher = createMemorySearcher({ ...sources, now: later });
    await searcher.search("flamingo migrations", { limit: -1, scope: "all" });
    await searcher.saved();
    appendFileSync(join(sources.projectRoot, "docs/knowledge-bank/patterns.md"), "\n### Pattern: Flamingo Migrations\nRun flamingo migrations one at a time.\n- Observation count: 1\n");
    const { results } = await searcher.search("flamingo migrations", { limit: -1, scope: "all" });
    expect(results[0]!.entry.name).toBe("Flamingo Migrations");
    expect((await sharedRanking({ ...sources, fingerprint: fingerprintOf(sources) })).from).toBe("files");
  });

  it("ignores a stale, a damaged and another version's cache, and caches the files anew in its place", async () => {
    const sources = await realBank();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    const expected = shown(await searchedAfresh(sources, QUERIES[1]!));
    const rankedFrom = async () => {
      const shared = await sharedRanking({ ...sources, fingerprint: fingerprintOf(sources) });
      await shared.save();
      const { candidates, index } = shared.ranking!;
      const results = rankEntries(candidates, { text: QUERIES[1]! }, { index, orders: entryOrders(candidates), feedback: readFeedback(sources.globalStoreDir), floor: SEARCH_FLOOR });
      return { from: shared.from, results: shown(results) };
    };
    const anew = { from: "files", results: expected };
    const reused = { from: "cache", results: expected };

    // Another version's (or another layout's) cache of these very files.
    const other = await prepareSessionInjection(sources);
    other.ranking!.candidates.reverse();
    await writeCachedInjection(path, fingerprintOf(sources, "0.0.9\tformat 1\tolder").value, other);
    expect([await rankedFrom(), await rankedFrom()]).toEqual([anew, reused]);

    // Stale: a vote since it was written (votes are part of the fingerprint, as they are of the hooks' plan).
    await recordFeedback({ ...sources, hash: other.ranking!.candidates[0]!.contentHash, helpful: false });
    const afterVote = shown(await searchedAfresh(sources, QUERIES[1]!));
    expect([await rankedFrom(), await rankedFrom()]).toEqual([
      { from: "files", results: afterVote },
      { from: "cache", results: afterVote },
    ]);

    // Damaged: cut short, then garbage.
    truncateSync(rankingCachePath(path), 5_000);
    expect([await rankedFrom(), await rankedFrom()]).toEqual([
      { from: "files", results: afterVote },
      { from: "cache", results: afterVote },
    ]);
    writeFileSync(rankingCachePath(path), `{"fingerprint": ${JSON.stringify(fingerprintOf(sources).value)}, "index": \n`);
    expect([await rankedFrom(), await rankedFrom()]).toEqual([
      { from: "files", results: afterVote },
      { from: "cache", results: afterVote },
    ]);
    writeFileSync(path, "not json");
    expect((await rankedFrom()).from).toBe("files");
  });

  it("ranks from the files and caches nothing while a file is still changing", async () => {
    const sources = await realBank();
    const shared = await sharedRanking({ ...sources, fingerprint: injectionFingerprint({ ...sources, salt: MEMORY_CACHE_SALT }) });
    await shared.save();
    expect([shared.from, existsSync(injectionCachePath(sources.globalStoreDir, sources.projectRoot))]).toEqual(["files", false]);
  });

  it("leaves the ranking to the caller when the config leaves the global store out", async () => {
    const sources = await realBank();
    mkdirSync(join(sources.projectRoot, ".claude"));
    writeFileSync(join(sources.projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_global_enabled: false\n---\n");
    const first = await sharedRanking({ ...sources, fingerprint: fingerprintOf(sources) });
    await first.save();
    const second = await sharedRanking({ ...sources, fingerprint: fingerprintOf(sources) });
    expect([first.from, first.ranking, second.from, second.ranking]).toEqual(["files", null, "cache", null]);
    const searcher = createMemorySearcher({ ...sources, now: later });
    const { results } = await searcher.search(QUERIES[0]!, { limit: -1, scope: "all" });
    expect(shown(results)).toEqual(shown(await searchedAfresh(sources, QUERIES[0]!)));
  });

  it("never reads a torn cache while others write it at once", async () => {
    const sources = await realBank();
    const path = injectionCachePath(sources.globalStoreDir, sources.projectRoot);
    const fingerprint = fingerprintOf(sources).value;
    const injection = await prepareSessionInjection(sources);
    const names = injection.ranking!.candidates.map((entry) => entry.name);
    const writes = Array.from({ length: 6 }, () => writeCachedInjection(path, fingerprint, injection));
    const reads: Array<string[] | null> = [];
    for (let read = 0; read < 20; read++) {
      reads.push(readCachedRanking(path, fingerprint)?.candidates.map((entry) => entry.name) ?? null);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    reads.push(readCachedRanking(path, fingerprint)!.candidates.map((entry) => entry.name));
    expect(reads.filter((read) => read !== null && JSON.stringify(read) !== JSON.stringify(names))).toEqual([]);
    expect(reads.at(-1)).toEqual(names);
    expect(decodeRankingCache(readFileSync(rankingCachePath(path)), fingerprint)?.candidates.map((entry) => entry.name)).toEqual(names);
  });
});
