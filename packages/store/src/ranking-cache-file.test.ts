import { join } from "node:path";
import { planInjection } from "@iflow-memory/ranker";
import { CORPORA_DIR } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { prepareSessionInjection } from "./prepare-session-injection.js";
import { decodeRankingCache, encodeRankingCache } from "./ranking-cache-file.js";

const sources = { projectRoot: join(CORPORA_DIR, "iflow-kb-2026-04"), globalStoreDir: join(CORPORA_DIR, "global-store-example") };
const bytes = (text: string) => new TextEncoder().encode(text);

describe("encodeRankingCache / decodeRankingCache", () => {
  it("gives back every entry of the real bank as it was, and the same index", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const decoded = decodeRankingCache(bytes(encodeRankingCache("f", ranking!)), "f")!;
    expect(JSON.parse(JSON.stringify(decoded))).toEqual(JSON.parse(JSON.stringify(ranking)));
    // Field by field, as the ranker and the formatter read them.
    expect(decoded.candidates.map((entry) => [entry.name, entry.headerLine, entry.category, entry.description, entry.metadataText, entry.observationCount, entry.confidence, entry.lastObserved, entry.filePosition, entry.contentHash, entry.scope])).toEqual(
      ranking!.candidates.map((entry) => [entry.name, entry.headerLine, entry.category, entry.description, entry.metadataText, entry.observationCount, entry.confidence, entry.lastObserved, entry.filePosition, entry.contentHash, entry.scope]),
    );
  });

  it("plans the same injection from the decoded ranking as from the files", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const decoded = decodeRankingCache(bytes(encodeRankingCache("f", ranking!)), "f")!;
    const request = { limit: 20, maxChars: 9000, query: { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"], text: "FTS5 keyword search" } };
    expect(planInjection({ ...request, candidates: decoded.candidates, ranking: { index: decoded.index } }).block).toBe(planInjection({ ...request, candidates: ranking!.candidates, ranking: { index: ranking!.index } }).block);
  });

  it("parses an entry's own line only when its text is asked for", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const text = encodeRankingCache("f", ranking!);
    const lines = text.split("\n");
    // The second entry's line broken (same length, so the offsets still hold): only reading its text fails.
    lines[2] = "x".repeat(lines[2]!.length);
    const decoded = decodeRankingCache(bytes(lines.join("\n")), "f")!;
    expect([decoded.candidates[0]!.name, decoded.candidates[1]!.contentHash]).toEqual([ranking!.candidates[0]!.name, ranking!.candidates[1]!.contentHash]);
    expect(() => decoded.candidates[1]!.description).toThrow(SyntaxError);
  });

  it("is no cache under another fingerprint, torn, or not a cache at all", async () => {
    const { ranking } = await prepareSessionInjection(sources);
    const text = encodeRankingCache("f", ranking!);
    expect(decodeRankingCache(bytes(text), "g")).toBeNull();
    expect(decodeRankingCache(bytes(text.slice(0, -100)), "f")).toBeNull();
    expect(decodeRankingCache(bytes("{}\n"), "f")).toBeNull();
    expect(decodeRankingCache(bytes("not json"), "f")).toBeNull();
  });
});
