import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeEntry } from "../__fixtures__/make-entry.js";
import { entryList } from "../entry-list.js";
import { entryOrders } from "../sort-entries.js";
import { GATE_EXPONENT, GATE_VOCABULARY, knownShareGate, rankEntries, rankingOf } from "./rank-entries.js";
import { queryTerms } from "./query-terms.js";
import { buildRelevanceIndex, termPostings } from "./relevance-index.js";

const retries = makeEntry({ name: "Retry Embedding Calls With Backoff", description: "Embedding calls time out under load; retry them with exponential backoff and a timeout.", metadataText: "- Instead: Wrap every embedding call in the retry helper\n- Source: Feature #034" });
const hooks = makeEntry({ name: "Keep Session Hooks Fast", description: "A slow session-start hook delays every session; measure its start-up.", category: "heuristics" });
const reviews = makeEntry({ name: "Small Pull Requests", description: "Small pull requests are reviewed faster and more carefully.", category: "heuristics" });
const entries = [retries, hooks, reviews];
// A floor for a bank of a handful of entries (the default is set for real banks of hundreds; three
// entries know too few words for the known-share gate). Relevance ≥ 0.5 × the rarest term's weight (1.04 here).
const floor = { minimumKnownShare: 0, minimum: 0.5, relativeToBest: 0.2, minimumTerms: 1, minimumCoverage: 0.1 };

describe("rankEntries", () => {
  it("leaves out an entry that holds too small a share of the query's weight (a query mostly about what the bank never mentions)", () => {
    const query = { text: "embedding css grid pricing mobile overflow" };
    expect(rankEntries(entries, query, { floor: { ...floor, minimumCoverage: 0 } }).map((item) => item.entry.name)).toEqual(["Retry Embedding Calls With Backoff"]);
    expect(rankEntries(entries, query, { floor: { ...floor, minimumCoverage: 0.3 } })).toEqual([]);
  });

  it("ranks nothing for a query mostly in words a bank of a broad vocabulary never uses, however well one of them matches", () => {
    const query = { text: "retry the css grid on the pricing page" };
    const broad = [...entries, ...fillerEntries(GATE_VOCABULARY)];
    expect(rankEntries(broad, query, { floor }).map((item) => item.entry.name)).toEqual(["Retry Embedding Calls With Backoff"]);
    expect(rankEntries(broad, query, { floor: { ...floor, minimumKnownShare: 0.5 } })).toEqual([]);
  });

  it("asks a bank of a narrower vocabulary for a smaller known share (knownShareGate), so that a relevant query in words it mostly never uses still ranks", () => {
    const query = { text: "retry embedding calls on the pricing page" }; // 3 of its 5 terms known: 0.6
    const gateFloor = { ...floor, minimumKnownShare: 0.7 };
    const small = buildRelevanceIndex(entries);
    const broad = [...entries, ...fillerEntries(GATE_VOCABULARY)];
    expect(knownShareGate(gateFloor, small)).toBeCloseTo(0.7 * (Object.keys(small.postings).length / GATE_VOCABULARY) ** GATE_EXPONENT, 10);
    expect(knownShareGate(gateFloor, buildRelevanceIndex(broad))).toBe(0.7);
    expect(rankEntries(entries, query, { floor: gateFloor }).map((item) => item.entry.name)).toEqual(["Retry Embedding Calls With Backoff"]);
    expect(rankEntries(broad, query, { floor: gateFloor })).toEqual([]);
  });

  it("ranks the entries that match the query, best first, with the matched terms and the parts of the score", () => {
    const ranked = rankEntries(entries, { branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"] }, { floor });
    expect(ranked.map((item) => [item.entry.name, item.matchedTerms])).toEqual([["Retry Embedding Calls With Backoff", ["embed", "call", "timeout", "retri"]]]);
    const [top] = ranked;
    expect(top!.score).toBeCloseTo(top!.relevance * (1 + 0.3 * top!.prominence) * top!.feedbackFactor, 10);
    expect(top!.feedbackFactor).toBe(1);
  });

  it("ranks nothing for a query that no entry matches over the floor, or for an empty query", () => {
    expect(rankEntries(entries, { text: "update the CSS grid on the pricing page" }, { floor })).toEqual([]);
    expect(rankEntries(entries, {})).toEqual([]);
    expect(rankEntries([], { text: "retry" })).toEqual([]);
  });

  it("lets the proven entry win between equally relevant ones", () => {
    const once = makeEntry({ name: "Flaky Retry A", description: "Retry flaky network calls.", filePosition: 1 });
    const often = makeEntry({ name: "Flaky Retry B", description: "Retry flaky network calls!", observationCount: 6, confidence: "high", filePosition: 2 });
    const ranked = rankEntries([...entries, once, often], { text: "retry flaky network calls" }, { floor });
    expect(ranked.map((item) => item.entry.name).slice(0, 2)).toEqual(["Flaky Retry B", "Flaky Retry A"]);
    expect(ranked[0]!.relevance).toBeCloseTo(ranked[1]!.relevance, 10);
  });

  it("sinks an entry readers found unhelpful again and again below its equals, and lifts a helpful one", () => {
    const a = makeEntry({ name: "Retry A", description: "Retry flaky network calls.", filePosition: 2 });
    const b = makeEntry({ name: "Retry B", description: "Retry flaky network calls!", filePosition: 1 });
    const query = { text: "retry flaky network calls" };
    const names = (feedback?: Map<string, { helpful: number; unhelpful: number }>) =>
      rankEntries([...entries, a, b], query, { floor, ...(feedback === undefined ? {} : { feedback }) }).map((item) => item.entry.name).slice(0, 2);
    expect(names()).toEqual(["Retry A", "Retry B"]);
    expect(names(new Map([[a.contentHash, { helpful: 0, unhelpful: 4 }]]))).toEqual(["Retry B", "Retry A"]);
    expect(names(new Map([[b.contentHash, { helpful: 3, unhelpful: 0 }]]))).toEqual(["Retry B", "Retry A"]);
  });

  it("gives the same ranking with a prebuilt index, also after a JSON round trip (a cache)", () => {
    const query = { text: "slow session start hook" };
    const index = JSON.parse(JSON.stringify(buildRelevanceIndex(entries))) as ReturnType<typeof buildRelevanceIndex>;
    expect(rankEntries(entries, query, { index, floor })).toEqual(rankEntries(entries, query, { floor }));
    expect(rankEntries(entries, query, { floor }).map((item) => item.entry.name)).toEqual(["Keep Session Hooks Fast"]);
  });

  it("is not fooled by terms that are names of Object.prototype", () => {
    expect(rankEntries(entries, { text: "constructor toString __proto__ hasOwnProperty" }, { floor })).toEqual([]);
  });

  it("does not count an entry's bookkeeping (source, counts, dates) as its topic", () => {
    expect(rankEntries(entries, { text: "feature source observation" }, { floor })).toEqual([]);
  });
});

describe("rankEntries with entryOrders computed beforehand", () => {
  const WORDS = ["retry", "timeout", "embedding", "cache", "lock", "schema", "migration", "review", "worktree", "hook", "token", "deadline"];
  const entryArbitrary = fc.record({
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }),
    observationCount: fc.integer({ min: 1, max: 4 }),
    confidence: fc.constantFrom("high" as const, "medium" as const, "low" as const),
    lastObserved: fc.option(fc.constantFrom("2026-01-02T10:00:00Z", "2026-03-04T10:00:00Z", "Feature #12"), { nil: null }),
    filePosition: fc.integer({ min: 1, max: 5 }),
  });

  it("ranks exactly as without them, ties included (500 random banks and queries)", () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary, { minLength: 1, maxLength: 40 }), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), (specs, query) => {
        const entries = specs.map((spec, at) =>
          makeEntry({ name: `Entry ${at}`, description: `${spec.words.join(" ")} (${at}).`, observationCount: spec.observationCount, confidence: spec.confidence, lastObserved: spec.lastObserved, filePosition: spec.filePosition }),
        );
        const index = buildRelevanceIndex(entries);
        const floor = { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 };
        const plain = rankEntries(entries, { text: query.join(" ") }, { index, floor });
        const ordered = rankEntries(entries, { text: query.join(" ") }, { index, floor, orders: entryOrders(entries) });
        expect(ordered).toEqual(plain);
      }),
      { numRuns: 500 },
    );
  });

  it("ranks exactly as without them under a floor that leaves matching entries out (recency counted among all that match; 500 random banks and queries)", () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary, { minLength: 1, maxLength: 40 }), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), fc.constantFrom(0.2, 0.5, 0.8), (specs, query, relativeToBest) => {
        const entries = specs.map((spec, at) =>
          makeEntry({ name: `Entry ${at}`, description: `${spec.words.join(" ")} (${at}).`, observationCount: spec.observationCount, confidence: spec.confidence, lastObserved: spec.lastObserved, filePosition: spec.filePosition }),
        );
        const options = { index: buildRelevanceIndex(entries), floor: { minimumKnownShare: 0, minimum: 0.3, relativeToBest, minimumTerms: 1, minimumCoverage: 0 } };
        expect(rankEntries(entries, { text: query.join(" ") }, { ...options, orders: entryOrders(entries) })).toEqual(rankEntries(entries, { text: query.join(" ") }, options));
      }),
      { numRuns: 500 },
    );
  });

  it("gives the first of that ranking when asked for so many, with or without them (500 random banks, queries and limits)", () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary, { minLength: 1, maxLength: 40 }), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 45 }), (specs, query, limit) => {
        const entries = specs.map((spec, at) =>
          makeEntry({ name: `Entry ${at}`, description: `${spec.words.join(" ")} (${at}).`, observationCount: spec.observationCount, confidence: spec.confidence, lastObserved: spec.lastObserved, filePosition: spec.filePosition }),
        );
        const index = buildRelevanceIndex(entries);
        const floor = { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 };
        const all = rankEntries(entries, { text: query.join(" ") }, { index, floor });
        expect(rankEntries(entries, { text: query.join(" ") }, { index, floor, limit })).toEqual(all.slice(0, limit));
        expect(rankEntries(entries, { text: query.join(" ") }, { index, floor, limit, orders: entryOrders(entries) })).toEqual(all.slice(0, limit));
      }),
      { numRuns: 500 },
    );
  });

  it("is read (rankingOf) as the same ranking however far, in whatever order, and gives chosen entries as the whole ranking does (500 random banks and queries)", () => {
    fc.assert(
      fc.property(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 40 }),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 45 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (specs, query, counts, picks) => {
          const entries = specs.map((spec, at) =>
            makeEntry({ name: `Entry ${at}`, description: `${spec.words.join(" ")} (${at}).`, observationCount: spec.observationCount, confidence: spec.confidence, lastObserved: spec.lastObserved, filePosition: spec.filePosition }),
          );
          const options = { index: buildRelevanceIndex(entries), floor: { minimumKnownShare: 0, minimum: 0.3, relativeToBest: 0.2, minimumTerms: 1, minimumCoverage: 0 } };
          const all = rankEntries(entries, { text: query.join(" ") }, options);
          const ranking = rankingOf(entries, { text: query.join(" ") }, options);
          for (const count of [...counts, Number.POSITIVE_INFINITY]) expect(ranking.first(count)).toEqual(all.slice(0, count));
          const chosen = picks.map((pick) => entries[pick % entries.length]!);
          const among = ranking.among(chosen);
          expect([...among.values()].sort((a, b) => a.score - b.score)).toEqual(all.filter((item) => chosen.includes(item.entry)).sort((a, b) => a.score - b.score));
          expect([...among.keys()].every((entry) => among.get(entry)!.entry === entry)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("rankingOf with entryOrders computed beforehand, asked for a few of many", () => {
  const WORDS = ["retry", "timeout", "embedding", "cache", "lock"];
  const entryArbitrary = fc.record({
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
    observationCount: fc.integer({ min: 1, max: 30 }),
    confidence: fc.constantFrom("high" as const, "medium" as const, "low" as const),
    lastObserved: fc.option(fc.constantFrom("2026-01-02T10:00:00Z", "2026-03-04T10:00:00Z", "2026-05-06T10:00:00Z"), { nil: null }),
    votes: fc.option(fc.record({ helpful: fc.nat(40), unhelpful: fc.nat(40) }), { nil: undefined }),
  });

  it("ranks exactly as without them, read in any order, under any prominence weight and feedback (200 random banks of up to 300 entries)", () => {
    fc.assert(
      fc.property(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 300 }),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(-2, -0.5, 0, 0.3, 1, 4),
        fc.array(fc.nat(), { maxLength: 8 }),
        (specs, query, counts, prominenceWeight, picks) => {
          const entries = specs.map((spec, at) => makeEntry({ name: `Entry ${at}`, description: `${spec.words.join(" ")}.`, observationCount: spec.observationCount, confidence: spec.confidence, lastObserved: spec.lastObserved }));
          const feedback = new Map(specs.flatMap((spec, at) => (spec.votes === undefined ? [] : [[entries[at]!.contentHash, spec.votes] as const])));
          const options = { index: buildRelevanceIndex(entries), feedback, prominenceWeight, floor: { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 } };
          const ordered = rankingOf(entries, { text: query.join(" ") }, { ...options, orders: entryOrders(entries) });
          const plain = rankingOf(entries, { text: query.join(" ") }, options);
          for (const count of counts) expect(ordered.first(count)).toEqual(plain.first(count));
          const chosen = picks.map((pick) => entries[pick % entries.length]!);
          expect(ordered.among(chosen)).toEqual(plain.among(chosen));
          expect(ordered.first(Number.POSITIVE_INFINITY)).toEqual(plain.first(Number.POSITIVE_INFINITY));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("gives first an entry that feedback lifts over a more relevant one, when one is asked for of many", () => {
    const lifted = makeEntry({ name: "Lifted", description: "Retry the timeout of the cache." });
    const plain = makeEntry({ name: "Plain", description: "Retry the timeout." });
    const weak = Array.from({ length: 12 }, (_, at) => makeEntry({ name: `Weak ${at}`, description: `Retry ${at} once more when the lock, the schema and the migration allow it.` }));
    const entries = [plain, lifted, ...weak];
    const feedback = new Map([[lifted.contentHash, { helpful: 40, unhelpful: 0 }]]);
    const options = { index: buildRelevanceIndex(entries), feedback, prominenceWeight: 0, floor: { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 } };
    const query = { text: "retry timeout" };
    const all = rankingOf(entries, query, options).first(Number.POSITIVE_INFINITY);
    // More relevant without feedback, second with it.
    expect(all[0]!.entry).toBe(lifted);
    expect(all.find((item) => item.entry === plain)!.relevance).toBeGreaterThan(all[0]!.relevance);
    expect(rankingOf(entries, query, { ...options, orders: entryOrders(entries) }).first(1)).toEqual(all.slice(0, 1));
  });

  it("gives the first few of many entries each less relevant than the one before, as without them", () => {
    // Each a word longer than the one before: relevance falls entry by entry, and with no
    // prominence weight the score is the relevance.
    const entries = Array.from({ length: 30 }, (_, at) => makeEntry({ name: `Entry ${at}`, description: `Retry the timeout${" and wait".repeat(at)}.`, observationCount: 30 - at }));
    const options = { index: buildRelevanceIndex(entries), prominenceWeight: 0, floor: { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 } };
    const query = { text: "retry timeout" };
    const all = rankingOf(entries, query, options).first(Number.POSITIVE_INFINITY);
    expect(all.map((item) => item.entry)).toEqual(entries);
    for (const count of [2, 3]) expect(rankingOf(entries, query, { ...options, orders: entryOrders(entries) }).first(count)).toEqual(all.slice(0, count));
  });

  it("ranks as without them where a fact reads as no number (a damaged cache column)", () => {
    const entries = Array.from({ length: 40 }, (_, at) => makeEntry({ name: `Entry ${at}`, description: `Retry the timeout${" and wait".repeat(at % 7)}.` }));
    const facts = {
      observationCount: (position: number) => (position % 5 === 0 ? Number.NaN : entries[position]!.observationCount),
      confidence: (position: number) => entries[position]!.confidence,
      contentHash: (position: number) => entries[position]!.contentHash,
    };
    const options = { index: buildRelevanceIndex(entries), facts, floor: { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 } };
    const query = { text: "retry timeout" };
    for (const count of [1, 2, 4]) expect(rankingOf(entries, query, { ...options, orders: entryOrders(entries) }).first(count)).toEqual(rankingOf(entries, query, options).first(count));
  });

  it("scores only the entries that could be among the first asked for: 5 of 2,000 that match, 10 of them well", () => {
    const entries = Array.from({ length: 2_000 }, (_, at) =>
      makeEntry({ name: `Entry ${at}`, description: at % 200 === 0 ? "Retry the embedding call when its timeout expires." : `Retry ${at} once more.`, observationCount: (at % 7) + 1 }),
    );
    const read = new Set<number>();
    const facts = {
      observationCount: (position: number) => {
        read.add(position);
        return entries[position]!.observationCount;
      },
      confidence: (position: number) => entries[position]!.confidence,
      contentHash: (position: number) => entries[position]!.contentHash,
    };
    const options = { index: buildRelevanceIndex(entries), orders: entryOrders(entries), floor: { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 } };
    const query = { text: "retry embedding timeout" };
    const first = rankingOf(entries, query, { ...options, facts }).first(5);
    expect(first).toEqual(rankingOf(entries, query, options).first(5));
    expect(first.every((item) => entries.indexOf(item.entry) % 200 === 0)).toBe(true);
    // The ten that match well, and none of the 1,990 that match one word.
    expect([...read].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, at) => at * 200));
  });
});

describe("rankingOf with the entries' facts kept apart (a ranking cache's columns)", () => {
  const WORDS = ["retry", "timeout", "embedding", "cache", "lock", "schema", "migration", "review"];
  const entryArbitrary = fc.record({
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }),
    observationCount: fc.integer({ min: 1, max: 12 }),
    confidence: fc.constantFrom("high" as const, "medium" as const, "low" as const),
    votes: fc.option(fc.record({ helpful: fc.nat(3), unhelpful: fc.nat(3) }), { nil: undefined }),
  });

  it("ranks as from the entries, and makes only the entries it hands out or is asked about (300 random banks, queries and feedback)", () => {
    fc.assert(
      fc.property(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 40 }),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 45 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (specs, query, count, picks) => {
          const entries = specs.map((spec, at) => makeEntry({ name: `Entry ${at}`, description: `${spec.words.join(" ")} (${at}).`, observationCount: spec.observationCount, confidence: spec.confidence }));
          const feedback = new Map(specs.flatMap((spec, at) => (spec.votes === undefined ? [] : [[entries[at]!.contentHash, spec.votes] as const])));
          const options = { index: buildRelevanceIndex(entries), orders: entryOrders(entries), feedback, floor: { minimumKnownShare: 0, minimum: 0.2, relativeToBest: 0.1, minimumTerms: 1, minimumCoverage: 0 } };
          const made = new Set<number>();
          const list = entryList(entries.length, (position) => {
            made.add(position);
            return entries[position]!;
          });
          const facts = { observationCount: (position: number) => specs[position]!.observationCount, confidence: (position: number) => specs[position]!.confidence, contentHash: (position: number) => entries[position]!.contentHash };
          const ranking = rankingOf(list, { text: query.join(" ") }, { ...options, facts });
          const plain = rankingOf(entries, { text: query.join(" ") }, options);
          const first = ranking.first(count);
          expect(first).toEqual(plain.first(count));
          const chosen = picks.map((pick) => entries[pick % entries.length]!);
          expect(ranking.among(chosen)).toEqual(plain.among(chosen));
          const handedOut = new Set([...first, ...ranking.among(chosen).values()].map((item) => entries.indexOf(item.entry)));
          expect([...made].filter((position) => !handedOut.has(position))).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("rankingOf's reasons", () => {
  const WORDS = ["retry", "timeout", "embedding", "cache", "lock", "schema", "migration", "review", "worktree", "hook", "token", "deadline"];

  it("gives each ranked entry the query's terms it holds, strongest first, as a scan of every term's postings finds them (300 random banks and queries)", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 60 }), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }), (specs, query) => {
        const entries = specs.map((words, at) => makeEntry({ name: `Entry ${at}`, description: `${words.join(" ")} (${at}).` }));
        const index = buildRelevanceIndex(entries);
        const options = { index, floor: { minimumKnownShare: 0, minimum: 0, relativeToBest: 0, minimumTerms: 1, minimumCoverage: 0 } };
        const saturation = 1.2;
        for (const item of rankEntries(entries, { text: query.join(" ") }, options)) {
          const position = entries.indexOf(item.entry);
          const reasons: Array<[string, number]> = [];
          for (const [term, weight] of queryTerms({ text: query.join(" ") })) {
            const postings = termPostings(index, term);
            const holding = postings.length / 2;
            const idf = Math.log(1 + (index.documents - holding + 0.5) / (holding + 0.5));
            for (let at = 0; at < postings.length; at += 2) {
              const count = postings[at + 1]!;
              if (postings[at] === position) reasons.push([term, weight * idf * ((count * (saturation + 1)) / (count + saturation))]);
            }
          }
          expect(item.matchedTerms).toEqual(reasons.sort((a, b) => b[1] - a[1]).map(([term]) => term));
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Entries holding `count` distinct made-up words between them (a vocabulary as broad as a real bank's). */
function fillerEntries(count: number) {
  const letters = (n: number): string => (n < 26 ? "" : letters(Math.floor(n / 26) - 1)) + String.fromCharCode(97 + (n % 26));
  const words = Array.from({ length: count }, (_, n) => `zq${letters(n)}x`);
  return Array.from({ length: Math.ceil(count / 100) }, (_, at) => makeEntry({ name: `Filler ${at}`, description: words.slice(at * 100, at * 100 + 100).join(" ") }));
}
