import type { Category, Confidence, Entry, Scope } from "@iflow-memory/parser";
import { indexTerms, type AnyRelevanceIndex, type EntryOrders, type RelevanceIndexReader } from "@iflow-memory/ranker";

/**
 * What relevance ranks: the candidates of an injection and their full-text index, with what
 * every plan needs of all of them whatever the query — their places in today's order and in
 * recency (`entryOrders`) and the hash prefixes two of them share (`sharedHashPrefixes`) —
 * worked out once with the index, so that a plan sorts nothing and reads only the entries it
 * ranks or shows.
 */
export interface RankingData {
  candidates: Entry[];
  index: AnyRelevanceIndex;
  orders: EntryOrders;
  sharedHashPrefixes: string[];
}

/**
 * The first line of a ranking cache file: everything a ranking reads of every entry, and where the
 * index's terms are. The numbers of every entry are columns, each the base64 of a typed array's
 * bytes (`littleEndian` says in which order): a header of 50,000 entries is parsed as a few long
 * strings, not as 200,000 numbers and 50,000 hashes.
 */
interface RankingHeader {
  fingerprint: string;
  littleEndian: boolean;
  /** The index's `documents`. */
  documents: number;
  /** The index's terms, sorted (by UTF-16 code units, as `<` compares them). */
  terms: string[];
  /** Where each term's postings text starts in the file's last line, and (last) where that line ends. */
  termStarts: number[];
  /** How many entries there are. */
  count: number;
  /** Float64, per entry in candidate order: where its full JSON line starts in the text after the header, and (last) where the line of postings starts. */
  offsets: string;
  /** Float64 per entry. */
  observationCount: string;
  /** One letter per entry: h(igh), m(edium), l(ow). */
  confidence: string;
  /** The entries' content hashes one after the other, each `hashWidth` characters long; with a `hashWidth` of 0, separated by newlines. */
  contentHash: string;
  hashWidth: number;
  /** One letter per entry: a(nti-patterns), h(euristics), p(atterns). */
  category: string;
  /** One letter per entry: l(ocal), g(lobal). */
  scope: string;
  /** `EntryOrders`, Int32 each. */
  order: string;
  recency: string;
  sharedHashPrefixes: string[];
}

const CONFIDENCE: Record<string, Confidence> = { h: "high", m: "medium", l: "low" };
const CATEGORY: Record<string, Category> = { a: "anti-patterns", h: "heuristics", p: "patterns" };

/**
 * The ranking cache file's text: a first line of JSON with what a ranking reads of every entry
 * and the index's terms, then one JSON line per entry with all of it, then a line of every term's
 * postings. A reader parses the first line only; an entry's own line when something asks for
 * its text (its name, description…), as formatting the twenty injected entries does; and a
 * term's postings when a query first holds it: a bank of 50,000 entries is ranked without
 * parsing 50,000 descriptions, or the postings of terms no query asked for.
 *
 * @example
 * writeFileAtomically(rankingCachePath(path), encodeRankingCache(fingerprint, injection.ranking));
 */
export function encodeRankingCache(fingerprint: string, ranking: RankingData): string {
  return rankingCacheLines(fingerprint, ranking).join("");
}

/**
 * `encodeRankingCache`'s text in pieces (its lines, the last one a piece per term), for
 * `writeFileAtomically` to write one after the other: at 50,000 entries the whole text is some
 * 80 MB.
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
  const postings = new Map(indexTerms(ranking.index));
  const terms = [...postings.keys()].sort();
  const texts = terms.map((term) => postings.get(term)!);
  const termStarts = [0];
  // Postings are ASCII (base 36, ":" and ","): a character is a byte.
  for (const text of texts) termStarts.push(termStarts[termStarts.length - 1]! + text.length);
  const { candidates } = ranking;
  const width = candidates[0]?.contentHash.length ?? 0;
  const hashWidth = width > 0 && candidates.every((entry) => entry.contentHash.length === width && !entry.contentHash.includes("\n")) ? width : 0;
  const header: RankingHeader = {
    fingerprint,
    littleEndian: LITTLE_ENDIAN,
    documents: ranking.index.documents,
    terms,
    termStarts,
    count: candidates.length,
    offsets: columnText(Float64Array.from(offsets)),
    observationCount: columnText(Float64Array.from(candidates, (entry) => entry.observationCount)),
    confidence: candidates.map((entry) => entry.confidence[0]).join(""),
    contentHash: candidates.map((entry) => entry.contentHash).join(hashWidth > 0 ? "" : "\n"),
    hashWidth,
    category: candidates.map((entry) => entry.category[0]).join(""),
    scope: candidates.map((entry) => entry.scope[0]).join(""),
    order: columnText(ranking.orders.order),
    recency: columnText(ranking.orders.recency),
    sharedHashPrefixes: ranking.sharedHashPrefixes,
  };
  return [`${JSON.stringify(header)}\n`, ...lines, ...texts, "\n"];
}

/**
 * The ranking in a cache file's bytes when its fingerprint is `fingerprint`, else null (stale,
 * torn or not ours). Its entries hold the fields a ranking reads; the rest of each is parsed from
 * its own line at first use, and a term's postings are read when first asked for.
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
 * own line when its text is first asked for, and a term's postings when a query first holds it —
 * so that a reader can leave them on disk until then.
 */
export function decodeRankingCacheHeader(header: string, fingerprint: string, bodyBytes: number, readLine: (start: number, end: number) => string): RankingData | null {
  let parsed: RankingHeader;
  try {
    parsed = JSON.parse(header) as RankingHeader;
  } catch {
    return null;
  }
  const { count } = parsed;
  if (parsed.fingerprint !== fingerprint || parsed.littleEndian !== LITTLE_ENDIAN || !Number.isSafeInteger(count) || count < 0) return null;
  if (!Array.isArray(parsed.terms) || !Array.isArray(parsed.termStarts) || parsed.termStarts.length !== parsed.terms.length + 1 || typeof parsed.documents !== "number") return null;
  const offsets = columnOf(parsed.offsets, Float64Array, count + 1);
  const observationCount = columnOf(parsed.observationCount, Float64Array, count);
  const order = columnOf(parsed.order, Int32Array, count);
  const recency = columnOf(parsed.recency, Int32Array, count);
  const hashes = hashesOf(parsed, count);
  const letters = [parsed.confidence, parsed.category, parsed.scope].every((column) => typeof column === "string" && column.length === count);
  if (offsets === null || observationCount === null || order === null || recency === null || hashes === null || !letters || !Array.isArray(parsed.sharedHashPrefixes)) return null;
  const postingsStart = offsets[count]!;
  if (bodyBytes !== postingsStart + parsed.termStarts[parsed.terms.length]! + 1) return null;
  const candidates: Entry[] = [];
  for (let at = 0; at < count; at++) {
    candidates.push(
      new CachedEntry(readLine, offsets[at]!, offsets[at + 1]! - 1, {
        category: CATEGORY[parsed.category[at]!]!,
        observationCount: observationCount[at]!,
        confidence: CONFIDENCE[parsed.confidence[at]!]!,
        contentHash: hashes(at),
        scope: parsed.scope[at] === "g" ? "global" : "local",
      }),
    );
  }
  const { terms, termStarts } = parsed;
  const find = (term: string) => {
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (terms[middle]! < term) low = middle + 1;
      else high = middle;
    }
    return terms[low] === term ? low : -1;
  };
  const index: RelevanceIndexReader = {
    version: 2,
    documents: parsed.documents,
    vocabulary: terms.length,
    has: (term) => find(term) >= 0,
    terms: () => terms,
    read: (term) => {
      const at = find(term);
      if (at < 0) throw new Error(`the index holds no term ${JSON.stringify(term)}`);
      return readLine(postingsStart + termStarts[at]!, postingsStart + termStarts[at + 1]!);
    },
  };
  return {
    candidates,
    index,
    orders: { order, recency },
    sharedHashPrefixes: parsed.sharedHashPrefixes,
  };
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

// A column's text: its bytes in base64.
function columnText(values: Float64Array | Int32Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString("base64");
}

// A column read back when it holds `length` values of its kind, else null.
function columnOf<T extends Float64Array | Int32Array>(text: unknown, Kind: { new (length: number): T; BYTES_PER_ELEMENT: number }, length: number): T | null {
  if (typeof text !== "string") return null;
  const bytes = Buffer.from(text, "base64");
  if (bytes.length !== length * Kind.BYTES_PER_ELEMENT) return null;
  // Copied into an array of its own: a view of the decoded bytes could start at an offset its kind cannot.
  const values = new Kind(length);
  new Uint8Array(values.buffer).set(bytes);
  return values;
}

// The content hash of each entry, from the header's `contentHash` and `hashWidth`; null when they do not hold `count` hashes.
function hashesOf(parsed: RankingHeader, count: number): ((at: number) => string) | null {
  const { contentHash: text, hashWidth: width } = parsed;
  if (typeof text !== "string" || !Number.isSafeInteger(width) || width < 0) return null;
  if (width > 0) return text.length === count * width ? (at) => text.slice(at * width, (at + 1) * width) : null;
  const hashes = count === 0 ? [] : text.split("\n");
  return hashes.length === count ? (at) => hashes[at]! : null;
}

// What a ranking and a plan read of every entry (today's order and recency come worked out, in
// `RankingData.orders`): the rest, dates and positions included, is read from the entry's line.
type RankedFields = Pick<Entry, "category" | "observationCount" | "confidence" | "contentHash" | "scope">;

// An entry whose text is read from its cache line when first asked for.
class CachedEntry implements Entry {
  readonly category: Category;
  readonly observationCount: number;
  readonly confidence: Confidence;
  readonly contentHash: string;
  readonly scope: Scope;
  // Where its own line is (no closure per entry: a cache of 50,000 entries keeps 50,000 of them).
  #readLine: (start: number, end: number) => string;
  #start: number;
  #end: number;
  #full: Entry | undefined;

  constructor(readLine: (start: number, end: number) => string, start: number, end: number, fields: RankedFields) {
    this.#readLine = readLine;
    this.#start = start;
    this.#end = end;
    this.category = fields.category;
    this.observationCount = fields.observationCount;
    this.confidence = fields.confidence;
    this.contentHash = fields.contentHash;
    this.scope = fields.scope;
  }

  get name(): string {
    return this.#entry().name;
  }
  get lastObserved(): string | null {
    return this.#entry().lastObserved;
  }
  get filePosition(): number {
    return this.#entry().filePosition;
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
    this.#full ??= JSON.parse(this.#readLine(this.#start, this.#end)) as Entry;
    return this.#full;
  }
}
