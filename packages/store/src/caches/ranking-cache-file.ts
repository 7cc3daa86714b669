import type { Category, Confidence, Entry, Scope } from "@iflow-memory/parser";
import { indexTerms, type AnyRelevanceIndex, type EntryOrders, type RelevanceIndexReader } from "@iflow-memory/ranker";
import { encodeLossless } from "../lossless-utf8.js";
import { entryLinePieces } from "./entry-file-cache.js";
import { CATEGORY_LETTERS, CONFIDENCE_LETTERS, LazyEntry, SCOPE_LETTERS } from "./lazy-entry.js";

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

/** The first line of a ranking cache file: everything a ranking reads of every entry, and where the index's terms are. */
interface RankingHeader {
  fingerprint: string;
  /** The index's `documents`. */
  documents: number;
  /** The index's terms, sorted (by UTF-16 code units, as `<` compares them). */
  terms: string[];
  /** Where each term's postings text starts in the file's last line, and (last) where that line ends. */
  termStarts: number[];
  /** Per entry, in candidate order: where its full JSON line starts in the text after the header, and (last) where the line of postings starts. */
  offsets: number[];
  observationCount: number[];
  /** One letter per entry: h(igh), m(edium), l(ow). */
  confidence: string;
  contentHash: string[];
  /** One letter per entry: a(nti-patterns), h(euristics), p(atterns). */
  category: string;
  /** One letter per entry: l(ocal), g(lobal). */
  scope: string;
  /** `EntryOrders`, as arrays. */
  order: number[];
  recency: number[];
  sharedHashPrefixes: string[];
}


/**
 * The ranking cache file's text: a first line of JSON with what a ranking reads of every entry
 * and the index's terms, then one JSON line per entry with all of it, then a line of every term's
 * postings. A reader parses the first line only; an entry's own line when something asks for
 * its text (its name, description…), as formatting the twenty injected entries does; and a
 * term's postings when a query first holds it: a bank of 50,000 entries is ranked without
 * parsing 50,000 descriptions, or the postings of terms no query asked for.
 *
 * @example
 * decodeRankingCache(Buffer.from(encodeRankingCache(fingerprint, injection.ranking)), fingerprint);
 */
export function encodeRankingCache(fingerprint: string, ranking: RankingData): string {
  return Buffer.concat(rankingCachePieces(fingerprint, ranking)).toString("utf8");
}

/**
 * `encodeRankingCache`'s bytes in pieces (its first line, a piece per entry's line, the
 * postings), for `writeFileAtomically` to write one after the other: at 50,000 entries the file
 * is some 80 MB. Each entry's line is encoded once (`entryLinePieces`: for an entry read from a
 * file's cache, the bytes it was read from, lines that follow one another there in one piece),
 * which gives the offsets of the first line.
 *
 * @example
 * writeFileAtomically(rankingCachePath(path), rankingCachePieces(fingerprint, injection.ranking));
 */
export function rankingCachePieces(fingerprint: string, ranking: RankingData): Uint8Array[] {
  // An entry read from a file's cache is written as the bytes of its line there.
  const { pieces: lines, lengths } = entryLinePieces(ranking.candidates);
  const offsets: number[] = [];
  let offset = 0;
  for (const length of lengths) {
    offsets.push(offset);
    offset += length;
  }
  offsets.push(offset);
  const postings = new Map(indexTerms(ranking.index));
  const terms = [...postings.keys()].sort();
  const texts = terms.map((term) => postings.get(term)!);
  const termStarts = [0];
  // Postings are ASCII (base 36, ":" and ","): a character is a byte.
  for (const text of texts) termStarts.push(termStarts[termStarts.length - 1]! + text.length);
  const { candidates } = ranking;
  const header: RankingHeader = {
    fingerprint,
    documents: ranking.index.documents,
    terms,
    termStarts,
    offsets,
    observationCount: candidates.map((entry) => entry.observationCount),
    confidence: candidates.map((entry) => entry.confidence[0]).join(""),
    contentHash: candidates.map((entry) => entry.contentHash),
    category: candidates.map((entry) => entry.category[0]).join(""),
    scope: candidates.map((entry) => entry.scope[0]).join(""),
    order: Array.from(ranking.orders.order),
    recency: Array.from(ranking.orders.recency),
    sharedHashPrefixes: ranking.sharedHashPrefixes,
  };
  return [encodeLossless(`${JSON.stringify(header)}\n`), ...lines, Buffer.from(`${texts.join("")}\n`, "latin1")];
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
  const count = parsed.contentHash?.length;
  if (parsed.fingerprint !== fingerprint || !Array.isArray(parsed.offsets) || parsed.offsets.length !== count + 1) return null;
  if (!Array.isArray(parsed.terms) || !Array.isArray(parsed.termStarts) || parsed.termStarts.length !== parsed.terms.length + 1 || typeof parsed.documents !== "number") return null;
  const postingsStart = parsed.offsets[count]!;
  if (bodyBytes !== postingsStart + parsed.termStarts[parsed.terms.length]! + 1) return null;
  if (!Array.isArray(parsed.order) || parsed.order.length !== count || !Array.isArray(parsed.recency) || parsed.recency.length !== count || !Array.isArray(parsed.sharedHashPrefixes)) return null;
  const candidates: Entry[] = [];
  for (let at = 0; at < count; at++) {
    const start = parsed.offsets[at]!;
    const end = parsed.offsets[at + 1]! - 1;
    candidates.push(
      new CachedEntry(readLine, start, end, {
        category: CATEGORY_LETTERS[parsed.category[at]!]!,
        observationCount: parsed.observationCount[at]!,
        confidence: CONFIDENCE_LETTERS[parsed.confidence[at]!]!,
        contentHash: parsed.contentHash[at]!,
        scope: SCOPE_LETTERS[parsed.scope[at]!] ?? "local",
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
    orders: { order: Int32Array.from(parsed.order), recency: Int32Array.from(parsed.recency) },
    sharedHashPrefixes: parsed.sharedHashPrefixes,
  };
}

// What a ranking and a plan read of every entry (today's order and recency come worked out, in
// `RankingData.orders`): the rest, dates and positions included, is read from the entry's line.
type RankedFields = Pick<Entry, "category" | "observationCount" | "confidence" | "contentHash" | "scope">;

// How much of an entry's line is read for its name alone: more than any name but a rare one.
const NAME_BYTES = 512;

/**
 * The name an entry's line begins with (its JSON has `name` first, as the parser makes entries),
 * or null when it begins otherwise or its name goes on past `text` (a part of the line).
 */
function nameAtStart(text: string): string | null {
  if (!text.startsWith('{"name":"')) return null;
  for (let at = text.indexOf('"', 9); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return JSON.parse(text.slice(8, at + 1)) as string;
  }
  return null;
}

// An entry whose text is read from its cache line when first asked for.
class CachedEntry extends LazyEntry implements Entry {
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
  #name: string | undefined;

  constructor(readLine: (start: number, end: number) => string, start: number, end: number, fields: RankedFields) {
    super();
    this.#readLine = readLine;
    this.#start = start;
    this.#end = end;
    this.category = fields.category;
    this.observationCount = fields.observationCount;
    this.confidence = fields.confidence;
    this.contentHash = fields.contentHash;
    this.scope = fields.scope;
  }

  override get name(): string {
    if (this.#full !== undefined) return this.#full.name;
    // An index line shows an entry's name alone: read from the start of its line, not all of it.
    this.#name ??= nameAtStart(this.#readLine(this.#start, Math.min(this.#end, this.#start + NAME_BYTES))) ?? this.whole().name;
    return this.#name;
  }
  get lastObserved(): string | null {
    return this.whole().lastObserved;
  }
  get filePosition(): number {
    return this.whole().filePosition;
  }
  get tags(): string[] {
    return this.whole().tags;
  }

  protected whole(): Entry {
    this.#full ??= JSON.parse(this.#readLine(this.#start, this.#end)) as Entry;
    return this.#full;
  }
}
