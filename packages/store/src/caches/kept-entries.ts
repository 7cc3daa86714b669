import type { Category, Confidence, Entry, Scope } from "@iflow-memory/parser";
import { CANDIDATE_FACTS, candidateFacts, type CandidateFacts } from "@iflow-memory/ranker";
import { CATEGORY_LETTERS, CONFIDENCE_LETTERS, LazyEntry, SCOPE_LETTERS } from "./lazy-entry.js";

// A large file's entries as its cache keeps them to be read lazily: columns of what every read
// asks of every entry beside their lines (`keptColumns`), and the entries made from them
// (`lazyEntries`), each parsing its own line at first use (`keptEntries`).

/** Where a kept entry's line is (newline included) in the bytes of the cache it was read lazily from. */
export interface KeptSpan {
  bytes: Buffer;
  start: number;
  end: number;
}

// Where an entry read lazily (`keptEntries`) carries its `KeptSpan` (one symbol for every bundle:
// one reads the entries, another writes them).
const KEPT_SPAN: unique symbol = /* @__PURE__ */ Symbol.for("iflow-memory: kept entry span") as never;

export const keptSpan = (entry: Entry): KeptSpan | undefined => (entry as { [KEPT_SPAN]?: KeptSpan })[KEPT_SPAN];

// Whether a kept line gave an entry: every field of the type the parser gives it, metadata values
// and tags strings (what reading, redacting, matching and ranking entries take them to be).
export function isEntry(value: unknown): value is Entry {
  if (value === null || typeof value !== "object") return false;
  const entry = value as Record<string, unknown>;
  const { metadata, tags, origin } = entry;
  if (typeof metadata !== "object" || metadata === null || !Array.isArray(tags) || typeof origin !== "object" || origin === null) return false;
  for (const key in metadata) if (typeof (metadata as Record<string, unknown>)[key] !== "string") return false;
  for (const tag of tags) if (typeof tag !== "string") return false;
  return (
    typeof entry.name === "string" &&
    typeof entry.headerLine === "string" &&
    typeof entry.category === "string" &&
    typeof entry.description === "string" &&
    typeof entry.metadataText === "string" &&
    typeof entry.observationCount === "number" &&
    typeof entry.confidence === "string" &&
    (entry.lastObserved === null || typeof entry.lastObserved === "string") &&
    typeof entry.filePosition === "number" &&
    typeof entry.contentHash === "string" &&
    typeof entry.scope === "string"
  );
}

/**
 * What is read of every kept entry of a large file without parsing its line (`keptEntries`): the
 * fields a ranking and today's order read, its tags and `CandidateFacts`, one list per field.
 * (The cache file's CRC-32 covers them, the lines and the packed terms.)
 */
interface KeptColumns {
  /** One letter per entry: a(nti-patterns), h(euristics), p(atterns). */
  category: string;
  /** One letter per entry: l(ocal), g(lobal). */
  scope: string;
  /** One letter per entry: h(igh), m(edium), l(ow). */
  confidence: string;
  observationCount: number[];
  lastObserved: (string | null)[];
  filePosition: number[];
  contentHash: string[];
  tags: string[][];
  /** One digit per entry: 1 when its description is empty. */
  emptyDescription: string;
  /** One digit per entry: 1 when it is marked contested. */
  contested: string;
  sourceItems: number[];
  /** Where each entry's line ends (after its newline), in bytes from the first line's start. */
  lineEnds: number[];
}

// The columns of `entries`, whose lines are each `lineLengths` bytes long.
export function keptColumns(entries: readonly Entry[], lineLengths: readonly number[]): KeptColumns {
  const facts = entries.map(candidateFacts);
  let lineEnd = 0;
  return {
    category: entries.map((entry) => entry.category[0]).join(""),
    scope: entries.map((entry) => entry.scope[0]).join(""),
    confidence: entries.map((entry) => entry.confidence[0]).join(""),
    observationCount: entries.map((entry) => entry.observationCount),
    lastObserved: entries.map((entry) => entry.lastObserved),
    filePosition: entries.map((entry) => entry.filePosition),
    contentHash: entries.map((entry) => entry.contentHash),
    tags: entries.map((entry) => entry.tags),
    emptyDescription: facts.map((fact) => (fact.emptyDescription ? "1" : "0")).join(""),
    contested: facts.map((fact) => (fact.contested ? "1" : "0")).join(""),
    sourceItems: facts.map((fact) => fact.sourceItems),
    lineEnds: lineLengths.map((length) => (lineEnd += length)),
  };
}

// The entries on `lines` (the cache file after its packed terms), read lazily with `columns`
// (the file's CRC-32 checked: these are the bytes written); null when the lines are not `count`
// or a column does not fit them.
export function lazyEntries(lines: Buffer, columns: unknown, count: number): Entry[] | null {
  if (!isKeptColumns(columns, count)) return null;
  // Where each line starts, and (last) where the last ends: as kept, each end checked to follow a
  // newline and the one before it. The lines are those written, `count` of them, so they hold
  // `count` newlines: ends that pass are theirs, one by one (no search for each).
  const starts = new Uint32Array(count + 1);
  for (let at = 0; at < count; at++) {
    const end = columns.lineEnds[at]!;
    if (!(end > starts[at]! && end <= lines.length && lines[end - 1] === 10)) return null;
    starts[at + 1] = end;
  }
  if (starts[count] !== lines.length) return null;
  const KeptEntry = keptEntries(lines, columns, starts);
  const entries: Entry[] = new Array<Entry>(count);
  for (let place = 0; place < count; place++) entries[place] = new KeptEntry(place);
  return entries;
}

function isKeptColumns(value: unknown, count: number): value is KeptColumns {
  if (value === null || typeof value !== "object") return false;
  const columns = value as Partial<Record<keyof KeptColumns, unknown>>;
  const letters = (text: unknown, pattern: RegExp) => typeof text === "string" && text.length === count && pattern.test(text);
  const fine =
    letters(columns.category, /^[ahp]*$/) &&
    letters(columns.scope, /^[lg]*$/) &&
    letters(columns.confidence, /^[hml]*$/) &&
    letters(columns.emptyDescription, /^[01]*$/) &&
    letters(columns.contested, /^[01]*$/);
  if (!fine) return false;
  const { observationCount, lastObserved, filePosition, contentHash, tags, sourceItems, lineEnds } = columns as Record<string, unknown[]>;
  for (const list of [observationCount, lastObserved, filePosition, contentHash, tags, sourceItems, lineEnds]) if (!Array.isArray(list) || list.length !== count) return false;
  // One loop over the entries for every list (a callback per item and list cost a new process twice as much).
  for (let at = 0; at < count; at++) {
    const observed = lastObserved![at];
    const entryTags = tags![at];
    if (typeof observationCount![at] !== "number" || typeof filePosition![at] !== "number" || typeof contentHash![at] !== "string" || !Number.isSafeInteger(sourceItems![at]) || !Number.isSafeInteger(lineEnds![at])) return false;
    if ((observed !== null && typeof observed !== "string") || !Array.isArray(entryTags)) return false;
    for (let tag = 0; tag < entryTags.length; tag++) if (typeof entryTags[tag] !== "string") return false;
  }
  return true;
}

/**
 * The kept entries of a large file: what its file's columns hold of one is read from them (each
 * field a getter: making thousands of entries copies nothing), the rest from its line, parsed when
 * a field the columns lack is first asked for (its name, description, metadata…): a start after
 * an edit ranks thousands of entries and shows twenty. Its line was checked with the others (the
 * cache file's checksum) before it was made. One field, its place: what the entries share is the
 * class's, made for the file (a field each for the file and the line's bounds cost a new process
 * making 5,000 of them a millisecond more).
 */
function keptEntries(lines: Buffer, columns: KeptColumns, starts: Uint32Array): new (at: number) => Entry {
  // Parsed for a few entries only: those shown.
  const full = new Map<number, Entry>();
  // The names read alone, for the few dozen an index names (a plan reads each more than once).
  const names = new Map<number, string>();
  return class KeptEntry extends LazyEntry implements Entry {
    readonly #at: number;

    constructor(at: number) {
      super();
      this.#at = at;
    }

    get category(): Category {
      return CATEGORY_LETTERS[columns.category[this.#at]!]!;
    }
    get scope(): Scope {
      return SCOPE_LETTERS[columns.scope[this.#at]!]!;
    }
    get confidence(): Confidence {
      return CONFIDENCE_LETTERS[columns.confidence[this.#at]!]!;
    }
    get observationCount(): number {
      return columns.observationCount[this.#at]!;
    }
    get lastObserved(): string | null {
      return columns.lastObserved[this.#at]!;
    }
    get filePosition(): number {
      return columns.filePosition[this.#at]!;
    }
    get contentHash(): string {
      return columns.contentHash[this.#at]!;
    }
    get tags(): string[] {
      return columns.tags[this.#at]!;
    }
    // Made at each read (a read or two per entry): cheaper than keeping it.
    get [CANDIDATE_FACTS](): CandidateFacts {
      const at = this.#at;
      return { emptyDescription: columns.emptyDescription[at] === "1", contested: columns.contested[at] === "1", sourceItems: columns.sourceItems[at]! };
    }
    get [KEPT_SPAN](): KeptSpan {
      return { bytes: lines, start: starts[this.#at]!, end: starts[this.#at + 1]! };
    }
    // An index line shows an entry's name alone: read from the start of its line, the rest unparsed.
    override get name(): string {
      const at = this.#at;
      let name = full.get(at)?.name ?? names.get(at);
      if (name === undefined) {
        name = nameOfLine(lines.subarray(starts[at], starts[at + 1])) ?? this.whole().name;
        names.set(at, name);
      }
      return name;
    }

    protected whole(): Entry {
      const at = this.#at;
      let entry = full.get(at);
      if (entry === undefined) {
        const parsed = JSON.parse(lines.toString("utf8", starts[at], starts[at + 1]! - 1)) as unknown;
        // The line was checked (the cache file's checksum) as kept from an entry: never otherwise.
        if (!isEntry(parsed)) throw new Error("a kept entry's line is not an entry although its checksum matched");
        entry = parsed;
        full.set(at, entry);
      }
      return entry;
    }
  };
}

// How a kept line starts: `JSON.stringify` of an entry, whose first key is its name.
const NAME_KEY = Buffer.from('{"name":"', "latin1");

// The name at the start of a kept `line`, null when the line does not start with one. Its JSON
// string ends at the first quote no backslash escapes (no byte of a character of several bytes
// in UTF-8 is a quote or a backslash); without a backslash, it is its bytes as they are.
function nameOfLine(line: Buffer): string | null {
  for (let at = 0; at < NAME_KEY.length; at++) if (line[at] !== NAME_KEY[at]) return null;
  const from = NAME_KEY.length;
  const quote = line.indexOf(0x22, from);
  if (quote < 0) return null;
  const slash = line.indexOf(0x5c, from);
  if (slash < 0 || slash > quote) return line.toString("utf8", from, quote);
  for (let at = slash; at < line.length; at++) {
    if (line[at] === 0x5c) at++;
    else if (line[at] === 0x22) return JSON.parse(line.toString("utf8", from - 1, at + 1)) as string;
  }
  return null;
}
