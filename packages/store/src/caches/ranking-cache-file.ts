import { CATEGORIES, type Category, type Confidence, type Entry, type Scope } from "@iflow-memory/parser";
import { entryList, indexTerms, LITTLE_ENDIAN, postingNumbers, postingText, type AnyRelevanceIndex, type EntryList, type EntryOrders, type FieldCounts, type RankingFacts, type RelevanceIndexReader } from "@iflow-memory/ranker";
import { asciiJson } from "../ascii-json.js";
import type { MemoryFileRead } from "../read-entry-files.js";
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
  /**
   * The same entries where they are read from a cache file: a list that makes each when it is
   * first read (a plan with `orders` reads those it ranks or shows), where `candidates` makes
   * them all at its first read.
   */
  entries?: EntryList;
  index: AnyRelevanceIndex;
  orders: EntryOrders;
  /** What a ranking's scores read of each entry, from the cache file's columns (with `entries`): the entries it ranks are not made for it. */
  facts?: RankingFacts;
  sharedHashPrefixes: string[];
  /**
   * The memory files the candidates were read from and where each one's are (`rankedFiles`;
   * null: not known): a cache file keeps them, with what a ranking grown by a few entries is
   * worked out from (`RankingGrowth`).
   */
  files?: RankedFile[] | null;
  /** The index's words per field (`LazyRelevanceIndex.fieldCounts`), worked out where the index was (a worker's, whose index is given built): for a cache file's `RankingGrowth`. */
  fieldCounts?: FieldCounts;
  /** Read back from a cache file that keeps it: what the ranking of the same files with a few entries appended to one is worked out from. */
  growth?: RankingGrowth;
}

/**
 * A memory file of a ranking as it was read (`MemoryFileRead`, without its entries), its last
 * entry as JSON (what a read of it from that entry on must give first), and where the candidates
 * are that came first from it (positions `start` to `end − 1`: a copy of one in a later file,
 * kept in its place, among them).
 */
export type RankedFile = Omit<MemoryFileRead, "entries"> & { last?: string; start: number; end: number };

/**
 * What a ranking cache keeps beyond the ranking, for a start after a few learnings were appended
 * to one memory file (`extendSessionInjection`): each file as it was read and where its
 * candidates are (`files`, when each file's are together, in the files' order), every entry's
 * field lengths and, per term, its words per entry and field — what its postings were summed from
 * (`LazyRelevanceIndex.fieldCounts`) — so that the postings of the entries with more appended
 * are summed again without the others' words.
 */
export interface RankingGrowth {
  files: RankedFile[];
  /** Whether every entry's observation count is a finite number (what `extendEntryOrders` needs). */
  finiteCounts: boolean;
  /** Per field, how many words all entries hold. */
  totals: [number, number, number];
  /** Per entry and field (entry × 3 + field), how many words it holds. */
  lengths(): Uint32Array;
  /** Whether a candidate's content hash starts with `prefix`. */
  hashStarting(prefix: string): boolean;
  /** Per posting of `term` (in their order), its words in name, description and metadata. */
  fieldCounts(term: string): Uint8Array;
}

/**
 * The first line of a ranking cache file: what says whose the file is, the index's terms and
 * where their postings are, and how long the columns are that end the file (`ColumnLayout`).
 */
interface RankingHeader {
  fingerprint: string;
  /** The index's `documents`. */
  documents: number;
  /** How many candidates. */
  count: number;
  /** The index's terms, sorted (by UTF-16 code units, as `<` compares them). */
  terms: string[];
  /** Where each term's postings start among all (counted in postings: 8 bytes each), and (last) how many there are. */
  postingStarts: number[];
  /** The bytes of the columns at the file's end (the names, last, take what the others leave). */
  columns: number;
  /** How many characters every content hash has, when all have as many and are ASCII (then they are a column); else 0, and they are `hashes`. */
  hashWidth: number;
  hashes?: string[];
  /** Whether the columns' numbers are little-endian (as the machine that wrote them). */
  littleEndian: boolean;
  sharedHashPrefixes: string[];
  /** With `RankingGrowth`: its files, its totals, and how many bytes its lengths and counts take after the postings' newline. */
  growth?: { files: RankedFile[]; totals: [number, number, number]; finiteCounts: boolean; bytes: number };
}

// At most so many entries of a cache file are made when it is read; more, each when it is first read.
const EAGER_ENTRIES = 1000;
// At most so many entries' names are read with the other columns; more, each when it is asked for.
const NAMES_LATER = 10_000;

// A posting in the file: an entry's position and the term's count in it (hundredths), 4 bytes each.
const POSTING_BYTES = 8;

// A column's letters, by character code.
const byCode = <T>(letters: Record<string, T>): T[] => {
  const values: T[] = [];
  for (const [letter, value] of Object.entries(letters)) values[letter.charCodeAt(0)] = value;
  return values;
};
const CATEGORIES_BY_CODE = byCode(CATEGORY_LETTERS);
const CONFIDENCES_BY_CODE = byCode(CONFIDENCE_LETTERS);
const SCOPES_BY_CODE = byCode(SCOPE_LETTERS);

/**
 * The columns that end a ranking cache file: what a ranking reads of every entry, as numbers and
 * letters that are used where they lie (nothing parsed, an entry two fields). In this order,
 * each starting at a multiple of its width: per entry its observation count (8 bytes,
 * a float), where its line starts in the text after the header (4; and one more: where the
 * postings start), where its name starts among the names (4; and one more: where they end),
 * its places in today's order and in recency (4 each), then each place of today's order's entry
 * (4: `EntryOrders.inOrder`), its confidence, category and scope (a
 * letter each: h/m/l, a/h/p, l/g), its content hash (`hashWidth` ASCII characters, when the
 * header says so), and last the names, one after another (JSON strings): what an index line
 * shows of an entry, read without its line.
 */
type ColumnLayout = { [Name in keyof ColumnSpans]: ReturnType<ColumnSpans[Name]["make"]> };
type ColumnSpans = ReturnType<typeof columnSpans>;

// Each column in its place: its view's maker, its width and its length. The one place the layout is written.
function columnSpans(count: number, hashWidth: number, nameBytes: number) {
  const view = <T>(make: (buffer: ArrayBufferLike, offset: number, length: number) => T, width: number, length: number) => ({ make, width, length });
  return {
    observationCount: view((b, o, n) => new Float64Array(b, o, n), 8, count),
    offsets: view((b, o, n) => new Uint32Array(b, o, n), 4, count + 1),
    nameStarts: view((b, o, n) => new Uint32Array(b, o, n), 4, count + 1),
    order: view((b, o, n) => new Int32Array(b, o, n), 4, count),
    recency: view((b, o, n) => new Int32Array(b, o, n), 4, count),
    inOrder: view((b, o, n) => new Int32Array(b, o, n), 4, count),
    confidence: view((b, o, n) => new Uint8Array(b, o, n), 1, count),
    category: view((b, o, n) => new Uint8Array(b, o, n), 1, count),
    scope: view((b, o, n) => new Uint8Array(b, o, n), 1, count),
    hashes: view((b, o, n) => new Uint8Array(b, o, n), 1, count * hashWidth),
    names: view((b, o, n) => Buffer.from(b, o, n), 1, nameBytes),
  };
}

function columnBytes(count: number, hashWidth: number, nameBytes: number): number {
  return Object.values(columnSpans(count, hashWidth, nameBytes)).reduce((total, span) => total + span.width * span.length, 0);
}

// The columns laid over `bytes` (at an offset that is a multiple of 8: the views need it).
function columnLayout(bytes: Uint8Array, count: number, hashWidth: number, nameBytes: number): ColumnLayout {
  let at = bytes.byteOffset;
  const spans = columnSpans(count, hashWidth, nameBytes);
  const layout = Object.entries(spans).map(([name, { make, width, length }]) => {
    const view = make(bytes.buffer, at, length);
    at += width * length;
    return [name, view];
  });
  return Object.fromEntries(layout) as ColumnLayout;
}

// Hashes of one width, all ASCII: that width, else 0 (they go in the header).
function uniformHashWidth(candidates: readonly Entry[]): number {
  const width = candidates[0]?.contentHash.length ?? 0;
  for (const entry of candidates) if (entry.contentHash.length !== width || !/^[\x20-\x7e]*$/.test(entry.contentHash)) return 0;
  return width;
}

/**
 * The ranking cache file's bytes: a first line of JSON with the index's terms, then one JSON line
 * per entry with all of it, then every term's postings (an entry's position and the term's count
 * in it, in hundredths: 4 bytes each, in the columns' byte order) and a newline, then the columns
 * of what a ranking reads of every entry (`ColumnLayout`). A reader parses the first line and lays the
 * columns out where they lie; it parses an entry's own line when something asks for its text
 * (its description, metadata…), as formatting the injected entries does; and reads a term's
 * postings when a query first holds it, as the numbers they are: a bank of 50,000 entries is
 * ranked without parsing 50,000 descriptions, the postings of terms no query asked for, or a
 * number of them.
 *
 * @example
 * decodeRankingCache(encodeRankingCache(fingerprint, injection.ranking), fingerprint);
 */
export function encodeRankingCache(fingerprint: string, ranking: RankingData): Uint8Array {
  return Buffer.concat(rankingCachePieces(fingerprint, ranking));
}

/**
 * `encodeRankingCache`'s bytes in pieces (its first line, a piece per entry's line, the
 * postings, the columns), for `writeFileAtomically` to write one after the other: at 50,000
 * entries the file is some 80 MB. Each entry's line is encoded once (`entryLinePieces`: for an
 * entry read from a file's cache, the bytes it was read from, lines that follow one another
 * there in one piece), which gives the offsets of the columns.
 *
 * @example
 * writeFileAtomically(rankingCachePath(path), rankingCachePieces(fingerprint, injection.ranking));
 */
export function rankingCachePieces(fingerprint: string, ranking: RankingData): Uint8Array[] {
  const { candidates } = ranking;
  const count = candidates.length;
  const hashWidth = uniformHashWidth(candidates);
  // As JSON strings: a name holds any text, lone surrogates included.
  const names = candidates.map((entry) => Buffer.from(JSON.stringify(entry.name)));
  const nameBytes = names.reduce((total, name) => total + name.length, 0);
  const columnsLength = columnBytes(count, hashWidth, nameBytes);
  const columnsBytes = new Uint8Array(columnsLength);
  const columns = columnLayout(columnsBytes, count, hashWidth, nameBytes);
  let nameStart = 0;
  names.forEach((name, at) => {
    columns.nameStarts[at] = nameStart;
    name.copy(columns.names, nameStart);
    nameStart += name.length;
  });
  columns.nameStarts[count] = nameStart;
  // An entry read from a file's cache is written as the bytes of its line there.
  const { pieces: lines, lengths } = entryLinePieces(candidates);
  let offset = 0;
  lengths.forEach((length, at) => {
    columns.offsets[at] = offset;
    offset += length;
  });
  columns.offsets[count] = offset;
  candidates.forEach((entry, at) => {
    columns.observationCount[at] = entry.observationCount;
    columns.confidence[at] = entry.confidence.charCodeAt(0);
    columns.category[at] = entry.category.charCodeAt(0);
    columns.scope[at] = entry.scope.charCodeAt(0);
    if (hashWidth > 0) Buffer.from(columns.hashes.buffer, columns.hashes.byteOffset + at * hashWidth, hashWidth).write(entry.contentHash, "latin1");
  });
  columns.order.set(ranking.orders.order);
  columns.recency.set(ranking.orders.recency);
  if (ranking.orders.inOrder !== undefined) columns.inOrder.set(ranking.orders.inOrder);
  else ranking.orders.order.forEach((place, position) => (columns.inOrder[place] = position));
  const { terms, postingStarts, postings } = packedPostings(ranking.index);
  const growth = growthPieces(ranking, terms, postingStarts);
  const header: RankingHeader = {
    fingerprint,
    documents: ranking.index.documents,
    count,
    terms,
    postingStarts,
    columns: columnsLength,
    hashWidth,
    ...(hashWidth > 0 ? {} : { hashes: candidates.map((entry) => entry.contentHash) }),
    littleEndian: LITTLE_ENDIAN,
    sharedHashPrefixes: ranking.sharedHashPrefixes,
    ...(growth === null ? {} : { growth: { files: growth.files, totals: growth.totals, finiteCounts: growth.finiteCounts, bytes: growth.bytes } }),
  };
  // The header in ASCII (`asciiJson`): every start that ranks decodes it whole.
  return [Buffer.from(`${asciiJson(header)}\n`, "latin1"), ...lines, new Uint8Array(postings.buffer, postings.byteOffset, postings.byteLength), Buffer.from("\n"), ...(growth?.pieces ?? []), columnsBytes];
}

// What a cache file keeps for `RankingGrowth`: null when the ranking was not read with its files
// (`RankingData.files`) or its index cannot give its words' counts.
function growthPieces(ranking: RankingData, terms: readonly string[], postingStarts: readonly number[]): { files: RankedFile[]; totals: [number, number, number]; finiteCounts: boolean; bytes: number; pieces: Uint8Array[] } | null {
  const { index, files } = ranking;
  if (files === undefined || files === null) return null;
  const counts = ranking.fieldCounts ?? ("fieldCounts" in index ? (index as { fieldCounts(): FieldCounts | null }).fieldCounts() : null);
  if (counts === null || counts.lengths.length !== ranking.candidates.length * 3) return null;
  const pieces: Uint8Array[] = [new Uint8Array(counts.lengths.buffer, counts.lengths.byteOffset, counts.lengths.byteLength)];
  let bytes = counts.lengths.byteLength;
  for (let at = 0; at < terms.length; at++) {
    const termCounts = counts.byTerm.get(terms[at]!);
    if (termCounts === undefined || termCounts.length !== (postingStarts[at + 1]! - postingStarts[at]!) * 3) return null;
    pieces.push(termCounts);
    bytes += termCounts.length;
  }
  const totals: [number, number, number] = [0, 0, 0];
  counts.lengths.forEach((length, at) => (totals[at % 3]! += length));
  const finiteCounts = ranking.candidates.every((entry) => Number.isFinite(entry.observationCount));
  return { files, totals, finiteCounts, bytes, pieces };
}

// The index's terms, sorted, and every term's postings one after another as numbers — a
// position and a count in hundredths, 4 bytes each — with where each term's start. (The texts are
// held, not their numbers: at 50,000 entries, millions of them.)
function packedPostings(index: AnyRelevanceIndex): { terms: string[]; postingStarts: number[]; postings: Uint32Array } {
  const texts = new Map(indexTerms(index));
  const terms = [...texts.keys()].sort();
  const postingStarts = [0];
  for (const term of terms) {
    // A posting per comma, and one more.
    const text = texts.get(term)!;
    let count = 1;
    for (let comma = text.indexOf(","); comma >= 0; comma = text.indexOf(",", comma + 1)) count++;
    postingStarts.push(postingStarts[postingStarts.length - 1]! + count);
  }
  const postings = new Uint32Array(postingStarts[terms.length]! * 2);
  terms.forEach((term, at) => {
    const numbers = postingNumbers(texts.get(term)!);
    for (const number of numbers) if (!(number >= 0 && number <= 0xffffffff)) throw new Error(`the postings of ${JSON.stringify(term)} hold ${number}, past what 4 bytes hold`);
    postings.set(numbers, postingStarts[at]! * 2);
  });
  return { terms, postingStarts, postings };
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
  const body = buffer.subarray(newline + 1);
  return decodeRankingCacheHeader(buffer.toString("utf8", 0, newline), fingerprint, body.length, (start, end) => body.subarray(start, end));
}

/**
 * The ranking of a cache file from its first line (`header`) and the columns that end it, when
 * its fingerprint is `fingerprint` and the rest of the file is `bodyBytes` long as the header
 * says (else null): `read(start, end)` gives the bytes between those offsets of the rest — the
 * columns, once; an entry's own line when its text is first asked for; a term's postings when a
 * query first holds it — so that a reader can leave them on disk until then.
 */
export function decodeRankingCacheHeader(header: string, fingerprint: string, bodyBytes: number, read: (start: number, end: number) => Uint8Array): RankingData | null {
  let parsed: RankingHeader;
  try {
    parsed = JSON.parse(header) as RankingHeader;
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== "object" || parsed.fingerprint !== fingerprint || parsed.littleEndian !== LITTLE_ENDIAN) return null;
  const { count, hashWidth, terms, postingStarts } = parsed;
  if (!Number.isSafeInteger(count) || count < 0 || !Number.isSafeInteger(hashWidth) || hashWidth < 0 || typeof parsed.documents !== "number") return null;
  if (!Array.isArray(terms) || !Array.isArray(postingStarts) || postingStarts.length !== terms.length + 1 || !Array.isArray(parsed.sharedHashPrefixes)) return null;
  if (hashWidth === 0 && (!Array.isArray(parsed.hashes) || parsed.hashes.length !== count)) return null;
  // The names take what the other columns leave.
  const nameBytes = parsed.columns - columnBytes(count, hashWidth, 0);
  if (!Number.isSafeInteger(nameBytes) || nameBytes < 0 || parsed.columns > bodyBytes) return null;
  const columnsStart = bodyBytes - parsed.columns;
  const namesStart = bodyBytes - nameBytes;
  // Past 10,000 entries, each name is read when it is asked for: an index shows a few hundred,
  // one read each (some 3 µs), where reading them all takes longer (at 50,000 entries they are
  // some 3 MB, more than all the other columns).
  const namesLater = count > NAMES_LATER;
  let columnsBytes = read(columnsStart, namesLater ? namesStart : bodyBytes);
  // The views need the columns aligned for their widths: copied when they are not.
  if (columnsBytes.byteOffset % 8 !== 0) columnsBytes = new Uint8Array(columnsBytes);
  const columns = columnLayout(columnsBytes, count, hashWidth, namesLater ? 0 : nameBytes);
  if (columns.nameStarts[count] !== nameBytes) return null;
  const postingsStart = columns.offsets[count]!;
  const growthStart = postingsStart + postingStarts[terms.length]! * POSTING_BYTES + 1;
  if (parsed.growth !== undefined && (parsed.growth === null || typeof parsed.growth !== "object")) return null;
  const growthBytes = parsed.growth === undefined ? 0 : parsed.growth.bytes;
  if (!Number.isSafeInteger(growthBytes) || growthBytes < 0 || columnsStart !== growthStart + growthBytes) return null;
  const readLine = (start: number, end: number) => {
    const bytes = read(start, end);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  };
  const { nameStarts } = columns;
  const nameText = namesLater ? (at: number) => readLine(namesStart + nameStarts[at]!, namesStart + nameStarts[at + 1]!) : (at: number) => columns.names.toString("utf8", nameStarts[at], nameStarts[at + 1]);
  const hashes = hashWidth > 0 ? Buffer.from(columns.hashes.buffer, columns.hashes.byteOffset, columns.hashes.byteLength).toString("latin1") : parsed.hashes!;
  const facts: RankingFacts = {
    observationCount: (at) => columns.observationCount[at]!,
    confidence: (at) => CONFIDENCES_BY_CODE[columns.confidence[at]!]!,
    contentHash: typeof hashes === "string" ? (at) => hashes.slice(at * hashWidth, (at + 1) * hashWidth) : (at) => hashes[at]!,
  };
  const table: CachedTable = { readLine, nameText, columns, facts, full: new Map() };
  const CachedEntry = cachedEntries(table);
  // A few hundred entries are made at once (read one at a time through a list, they cost the
  // plan of a bank of 283 more than making them all); thousands, each as it is first read, the
  // same one at every read after (a plan reads a few thousand of 50,000: making them all cost it
  // some 6 ms).
  let candidates: Entry[] | undefined;
  let entries: EntryList;
  if (count <= EAGER_ENTRIES) {
    candidates = new Array<Entry>(count);
    for (let at = 0; at < count; at++) candidates[at] = new CachedEntry(at);
    entries = candidates;
  } else {
    const made = new Array<Entry | undefined>(count);
    entries = entryList(count, (at) => (made[at] ??= new CachedEntry(at)));
  }
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
  // A term's postings as `termPostings` gives them, read from the file when first asked for:
  // positions of entries, each past the one before, and counts (kept in hundredths); else the
  // file is damaged, and that is thrown.
  const decoded = new Map<string, number[]>();
  const postingsOf = (term: string): number[] => {
    const known = decoded.get(term);
    if (known !== undefined) return known;
    const at = find(term);
    if (at < 0) throw new Error(`the index holds no term ${JSON.stringify(term)}`);
    const damaged = () => new Error(`the ranking cache's postings of ${JSON.stringify(term)} are damaged`);
    const start = postingStarts[at]!;
    const end = postingStarts[at + 1]!;
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && start < end && end <= postingStarts[terms.length]!)) throw damaged();
    let bytes = read(postingsStart + start * POSTING_BYTES, postingsStart + end * POSTING_BYTES);
    // The view needs its bytes aligned for 4-byte numbers: copied when they are not.
    if (bytes.byteOffset % 4 !== 0) bytes = new Uint8Array(bytes);
    const kept = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const postings = new Array<number>(kept.length);
    for (let next = 0, previous = -1; next < kept.length; next += 2) {
      const position = kept[next]!;
      if (position <= previous || position >= count) throw damaged();
      previous = position;
      postings[next] = position;
      postings[next + 1] = kept[next + 1]! / 100;
    }
    decoded.set(term, postings);
    return postings;
  };
  const hashStarting =
    typeof hashes === "string"
      ? (prefix: string) => {
          for (let at = hashes.indexOf(prefix); at >= 0; at = hashes.indexOf(prefix, at + 1)) if (at % hashWidth === 0) return true;
          return false;
        }
      : (prefix: string) => hashes.some((hash) => hash.startsWith(prefix));
  const growth = parsed.growth === undefined ? undefined : rankingGrowth(parsed.growth, count, growthStart, { postingsOf: (at) => [postingStarts[at]!, postingStarts[at + 1]!], find, read, hashStarting });
  if (growth === null) return null;
  const index: RelevanceIndexReader = {
    version: 2,
    documents: parsed.documents,
    vocabulary: terms.length,
    has: (term) => find(term) >= 0,
    terms: () => terms,
    read: (term) => postingText(postingsOf(term).map((number, at) => (at % 2 === 0 ? number : Math.round(number * 100)))),
    decodedPostings: postingsOf,
  };
  return {
    get candidates() {
      return (candidates ??= Array.from(entries));
    },
    entries,
    index,
    orders: { order: columns.order, recency: columns.recency, inOrder: columns.inOrder },
    facts,
    sharedHashPrefixes: parsed.sharedHashPrefixes,
    ...(growth === undefined ? {} : { growth }),
  };
}

// A cache file's `RankingGrowth` (its header's `growth`), its lengths and counts read when first
// asked for from `growthStart` on (`read`); null when its header is not what a writer gives.
function rankingGrowth(
  { files, totals, finiteCounts }: { files: unknown; totals: unknown; finiteCounts: unknown },
  count: number,
  growthStart: number,
  file: {
    postingsOf: (at: number) => [number, number];
    find: (term: string) => number;
    read: (start: number, end: number) => Uint8Array;
    hashStarting: (prefix: string) => boolean;
  },
): RankingGrowth | null {
  if (!Array.isArray(files) || !files.every(isRankedFile) || files.at(-1)?.end !== count) return null;
  if (!files.every((ranked, at) => ranked.start === (at === 0 ? 0 : files[at - 1]!.end))) return null;
  if (!Array.isArray(totals) || totals.length !== 3 || !totals.every((total) => Number.isSafeInteger(total) && total >= 0) || typeof finiteCounts !== "boolean") return null;
  const { postingsOf, find, read, hashStarting } = file;
  const countsStart = growthStart + count * 12;
  let lengths: Uint32Array | undefined;
  return {
    files,
    finiteCounts,
    totals: totals as [number, number, number],
    lengths: () => {
      if (lengths !== undefined) return lengths;
      let bytes = read(growthStart, countsStart);
      // The view needs its bytes aligned for 4-byte numbers: copied when they are not.
      if (bytes.byteOffset % 4 !== 0) bytes = new Uint8Array(bytes);
      return (lengths = new Uint32Array(bytes.buffer, bytes.byteOffset, count * 3));
    },
    hashStarting,
    fieldCounts: (term) => {
      const at = find(term);
      if (at < 0) throw new Error(`the index holds no term ${JSON.stringify(term)}`);
      const [start, end] = postingsOf(at);
      return read(countsStart + start * 3, countsStart + end * 3);
    },
  };
}

function isRankedFile(value: unknown): value is RankedFile {
  if (value === null || typeof value !== "object") return false;
  const file = value as Partial<RankedFile>;
  const place = (number: unknown) => Number.isSafeInteger(number) && (number as number) >= 0;
  return (
    typeof file.path === "string" &&
    (file.scope === "local" || file.scope === "global") &&
    CATEGORIES.includes(file.category as Category) &&
    (file.stamp === undefined || file.stamp === null || typeof file.stamp === "string") &&
    (file.last === undefined || typeof file.last === "string") &&
    place(file.start) &&
    place(file.end) &&
    file.end! >= file.start!
  );
}

// What the entries of one cache file share: its columns, how to read a line of it, and what was
// parsed of them (few: the entries shown).
interface CachedTable {
  readLine: (start: number, end: number) => string;
  /** An entry's name as the file keeps it (a JSON string). */
  nameText: (at: number) => string;
  columns: ColumnLayout;
  /** What a ranking reads of an entry (its observation count, confidence and content hash), from the columns. */
  facts: RankingFacts;
  full: Map<number, Entry>;
}

// The entries of a ranking cache: what a ranking reads of one from the file's columns, its text from
// its own line when first asked for. One field, its place, no more: a cache of 50,000 entries
// makes 50,000 (what they share is the class's, made for the file: a field for it cost a new
// process making 5,000 of them half a millisecond more).
function cachedEntries(table: CachedTable): new (at: number) => Entry {
  const { columns, facts, full, readLine, nameText } = table;
  return class CachedEntry extends LazyEntry implements Entry {
    readonly #at: number;

    constructor(at: number) {
      super();
      this.#at = at;
    }

    get category(): Category {
      return CATEGORIES_BY_CODE[columns.category[this.#at]!]!;
    }
    get observationCount(): number {
      return facts.observationCount(this.#at);
    }
    get confidence(): Confidence {
      return facts.confidence(this.#at);
    }
    get scope(): Scope {
      return SCOPES_BY_CODE[columns.scope[this.#at]!] ?? "local";
    }
    get contentHash(): string {
      return facts.contentHash(this.#at);
    }
    // An index line shows an entry's name alone: read from the names that end the columns.
    override get name(): string {
      return JSON.parse(nameText(this.#at)) as string;
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
      let entry = full.get(this.#at);
      if (entry === undefined) {
        entry = JSON.parse(readLine(columns.offsets[this.#at]!, columns.offsets[this.#at + 1]! - 1)) as Entry;
        full.set(this.#at, entry);
      }
      return entry;
    }
  };
}
