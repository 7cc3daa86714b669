import type { Entry } from "@iflow-memory/parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { boundSourceLine } from "./bound-source-line.js";
import { CANDIDATE_FACTS, candidateFacts, plainEntry } from "./candidate-facts.js";
import { dedupeEntries } from "./dedupe-entries.js";
import { injectionCandidates } from "./plan-injection.js";

// An entry as a cache reads it lazily: the fields a ranking reads and its facts at hand, the rest
// behind getters that count their reads; `toJSON` gives the entry whole.
class LazyEntry {
  static reads = 0;
  readonly category: Entry["category"];
  readonly scope: Entry["scope"];
  readonly confidence: Entry["confidence"];
  readonly observationCount: number;
  readonly lastObserved: string | null;
  readonly filePosition: number;
  readonly contentHash: string;
  readonly tags: string[];
  #entry: Entry;
  constructor(entry: Entry) {
    ({ category: this.category, scope: this.scope, confidence: this.confidence, observationCount: this.observationCount, lastObserved: this.lastObserved, filePosition: this.filePosition, contentHash: this.contentHash, tags: this.tags } = entry);
    (this as Record<symbol, unknown>)[CANDIDATE_FACTS] = candidateFacts(entry);
    this.#entry = entry;
  }
  #read(): Entry {
    LazyEntry.reads++;
    return this.#entry;
  }
  get name() {
    return this.#read().name;
  }
  get headerLine() {
    return this.#read().headerLine;
  }
  get description() {
    return this.#read().description;
  }
  get metadataText() {
    return this.#read().metadataText;
  }
  get metadata() {
    return this.#read().metadata;
  }
  get origin() {
    return this.#read().origin;
  }
  toJSON(): Entry {
    return this.#read();
  }
}
const lazy = (entry: Entry) => new LazyEntry(entry) as unknown as Entry;
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

// Entries that exercise every fact: empty descriptions, copies (one marked contested), Source lines of 0 to 6 provenances.
const arbitraryEntry = fc
  .record({
    description: fc.constantFrom("", "Run the tests first.", "run the TESTS first.", "Pin the toolchain."),
    count: fc.integer({ min: 1, max: 4 }),
    sources: fc.integer({ min: 0, max: 6 }),
    sourceKey: fc.constantFrom("Source", "source", "SOURCE"),
    contest: fc.constantFrom(null, "Contested with", "contested with"),
    scope: fc.constantFrom("local" as const, "global" as const),
    projectSpecific: fc.boolean(),
  })
  .map(({ description, count, sources, sourceKey, contest, scope, projectSpecific }, ) => {
    const metadata: Record<string, string> = {};
    if (sources > 0) metadata[sourceKey] = Array.from({ length: sources }, (_, at) => `project-${at}, Feature #${at}`).join("; ");
    if (contest !== null) metadata[contest] = "Other (sha256:491b5e15f50c1c0d)";
    const metadataText = Object.entries(metadata)
      .map(([key, value]) => `- ${key}: ${value}`)
      .join("\n");
    return makeEntry({ name: description, description, observationCount: count, scope, metadata, metadataText, tags: projectSpecific ? ["project-specific"] : [] });
  });

describe("candidate facts", () => {
  it("choosing candidates from entries read lazily gives what it gives from the entries whole", () => {
    fc.assert(
      fc.property(fc.array(arbitraryEntry, { maxLength: 12 }), fc.constantFrom("project-0", "project-5", "other"), (entries, project) => {
        const half = entries.length >> 1;
        const whole = injectionCandidates({ local: entries.slice(0, half), global: entries.slice(half), project });
        const read = injectionCandidates({ local: entries.slice(0, half).map(lazy), global: entries.slice(half).map(lazy), project });
        expect(plain(read)).toEqual(plain(whole));
      }),
      { numRuns: 500 },
    );
  });

  it("are asked before an entry is read: one without a long Source line, a contest or a copy passes unread", () => {
    const entries = [
      makeEntry({ name: "A", description: "One.", metadata: { Source: "a, F1; b, F2; c, F3" }, metadataText: "- Source: a, F1; b, F2; c, F3" }),
      makeEntry({ name: "B", description: "Two." }),
      makeEntry({ name: "C", description: "" }),
      makeEntry({ name: "D", description: "two.", scope: "global" }),
    ].map(lazy);
    LazyEntry.reads = 0;
    const chosen = injectionCandidates({ local: entries.slice(0, 3), global: entries.slice(3), project: "p" });
    expect(LazyEntry.reads).toBe(0);
    expect(chosen).toEqual(entries.slice(0, 3));
  });

  it("a changed entry is made from the whole of a lazy one: a spread of it would lose its fields", () => {
    const source = "a, F1; b, F2; c, F3; d, F4";
    const entry = lazy(makeEntry({ name: "A", description: "One.", metadata: { Source: source }, metadataText: `- Source: ${source}` }));
    const bounded = boundSourceLine(entry);
    expect(bounded.name).toBe("A");
    expect(bounded.metadata.Source).toBe("b, F2; c, F3; d, F4 (and 1 earlier)");
    expect(CANDIDATE_FACTS in bounded).toBe(false);
    const [kept] = dedupeEntries([lazy(makeEntry({ name: "B", description: "Two.", observationCount: 2 })), lazy(makeEntry({ name: "B2", description: "two.", metadata: { "Contested with": "X" }, metadataText: "- Contested with: X" }))]);
    expect([kept!.name, kept!.description, kept!.metadata["Contested with"]]).toEqual(["B", "Two.", "X"]);
    expect(plainEntry(entry)).toEqual(plain(entry));
  });
});
