import type { Category, Confidence, Entry, Scope } from "@iflow-memory/parser";
import type { RelevanceIndex } from "@iflow-memory/ranker";

/** What relevance ranks: the candidates of an injection and their full-text index. */
export interface RankingData {
  candidates: Entry[];
  index: RelevanceIndex;
}

/** The first line of a ranking cache file: everything a ranking reads of every entry. */
interface RankingHeader {
  fingerprint: string;
  index: RelevanceIndex;
  /** Per entry, in candidate order: where its full JSON line starts in the text after the header, and where the next starts. */
  offsets: number[];
  observationCount: number[];
  /** One letter per entry: h(igh), m(edium), l(ow). */
  confidence: string;
  lastObserved: Array<string | null>;
  filePosition: number[];
  contentHash: string[];
  /** One letter per entry: a(nti-patterns), h(euristics), p(atterns). */
  category: string;
  /** One letter per entry: l(ocal), g(lobal). */
  scope: string;
}

const CONFIDENCE: Record<string, Confidence> = { h: "high", m: "medium", l: "low" };
const CATEGORY: Record<string, Category> = { a: "anti-patterns", h: "heuristics", p: "patterns" };

/**
 * The ranking cache file's text: a first line of JSON with the index and the fields a ranking
 * reads of every entry, then one JSON line per entry with all of it. A reader parses the first
 * line only, and an entry's own line when something asks for its text (its name, description…),
 * as formatting the twenty injected entries does: a bank of 50,000 entries is ranked without
 * parsing 50,000 descriptions.
 *
 * @example
 * writeFileAtomically(rankingCachePath(path), encodeRankingCache(fingerprint, injection.ranking));
 */
export function encodeRankingCache(fingerprint: string, ranking: RankingData): string {
  return rankingCacheLines(fingerprint, ranking).join("");
}

/**
 * `encodeRankingCache`'s text as its lines, each with its newline, for `writeFileAtomically` to
 * write one after the other: at 50,000 entries the whole text is some 80 MB.
 *
 * @example
 * writeFileAtomically(rankingCachePath(path), rankingCacheLines(fingerprint, injection.ranking));
 */
export function rankingCacheLines(fingerprint: string, ranking: RankingData): string[] {
  const lines = ranking.candidates.map((entry) => `${JSON.stringify(entry)}\n`);
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += Buffer.byteLength(line);
  }
  offsets.push(offset);
  const { candidates } = ranking;
  const header: RankingHeader = {
    fingerprint,
    index: ranking.index,
    offsets,
    observationCount: candidates.map((entry) => entry.observationCount),
    confidence: candidates.map((entry) => entry.confidence[0]).join(""),
    lastObserved: candidates.map((entry) => entry.lastObserved),
    filePosition: candidates.map((entry) => entry.filePosition),
    contentHash: candidates.map((entry) => entry.contentHash),
    category: candidates.map((entry) => entry.category[0]).join(""),
    scope: candidates.map((entry) => entry.scope[0]).join(""),
  };
  lines.unshift(`${JSON.stringify(header)}\n`);
  return lines;
}

/**
 * The ranking in a cache file's bytes when its fingerprint is `fingerprint`, else null (stale,
 * torn or not ours). Its entries hold the fields a ranking reads; the rest of each is parsed from
 * its own line at first use.
 */
export function decodeRankingCache(bytes: Uint8Array, fingerprint: string): RankingData | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const newline = buffer.indexOf(10);
  if (newline < 0) return null;
  const text = buffer.subarray(newline + 1);
  return decodeRankingCacheHeader(buffer.toString("utf8", 0, newline), fingerprint, text.length, (start, end) => text.toString("utf8", start, end));
}

/**
 * The ranking of a cache file from its first line alone (`header`), when its fingerprint is
 * `fingerprint` and the rest of the file is `bodyBytes` long as the header says (else null):
 * `readLine(start, end)` gives the text between those byte offsets of the rest, for an entry's
 * own line when its text is first asked for — so that a reader can leave the entries' lines on
 * disk until then.
 */
export function decodeRankingCacheHeader(header: string, fingerprint: string, bodyBytes: number, readLine: (start: number, end: number) => string): RankingData | null {
  let parsed: RankingHeader;
  try {
    parsed = JSON.parse(header) as RankingHeader;
  } catch {
    return null;
  }
  const count = parsed.contentHash?.length;
  if (parsed.fingerprint !== fingerprint || typeof parsed.index?.postings !== "object" || !Array.isArray(parsed.offsets) || parsed.offsets.length !== count + 1) return null;
  if (bodyBytes !== parsed.offsets[count]) return null;
  const candidates: Entry[] = [];
  for (let at = 0; at < count; at++) {
    const start = parsed.offsets[at]!;
    const end = parsed.offsets[at + 1]! - 1;
    candidates.push(
      new CachedEntry(() => JSON.parse(readLine(start, end)) as Entry, {
        category: CATEGORY[parsed.category[at]!]!,
        observationCount: parsed.observationCount[at]!,
        confidence: CONFIDENCE[parsed.confidence[at]!]!,
        lastObserved: parsed.lastObserved[at] ?? null,
        filePosition: parsed.filePosition[at]!,
        contentHash: parsed.contentHash[at]!,
        scope: parsed.scope[at] === "g" ? "global" : "local",
      }),
    );
  }
  return { candidates, index: parsed.index };
}

type RankedFields = Pick<Entry, "category" | "observationCount" | "confidence" | "lastObserved" | "filePosition" | "contentHash" | "scope">;

// An entry whose text is read from its cache line when first asked for.
class CachedEntry implements Entry {
  readonly category: Category;
  readonly observationCount: number;
  readonly confidence: Confidence;
  readonly lastObserved: string | null;
  readonly filePosition: number;
  readonly contentHash: string;
  readonly scope: Scope;
  #load: () => Entry;
  #full: Entry | undefined;

  constructor(load: () => Entry, fields: RankedFields) {
    this.#load = load;
    this.category = fields.category;
    this.observationCount = fields.observationCount;
    this.confidence = fields.confidence;
    this.lastObserved = fields.lastObserved;
    this.filePosition = fields.filePosition;
    this.contentHash = fields.contentHash;
    this.scope = fields.scope;
  }

  get name(): string {
    return this.#entry().name;
  }
  get headerLine(): string {
    return this.#entry().headerLine;
  }
  get description(): string {
    return this.#entry().description;
  }
  get metadataText(): string {
    return this.#entry().metadataText;
  }
  get metadata(): Record<string, string> {
    return this.#entry().metadata;
  }
  get tags(): string[] {
    return this.#entry().tags;
  }
  get origin(): Entry["origin"] {
    return this.#entry().origin;
  }

  /** All of it as a plain entry (what JSON and structured clone see). */
  toJSON(): Entry {
    return this.#entry();
  }

  #entry(): Entry {
    this.#full ??= this.#load();
    return this.#full;
  }
}
