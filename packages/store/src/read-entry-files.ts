import { dirname, join } from "node:path";
import { CATEGORIES, parseKnowledgeBank, redactEntry, resumePoint, type Category, type Entry, type ParseResume, type Scope } from "@iflow-memory/parser";
import { entryFieldTerms, numberedFieldTerms, numberTerms, PackedTerms, type PackedEntryTerms } from "@iflow-memory/ranker";
import { COMMIT_JOURNAL, type PendingAppend } from "./commit-files.js";
import { crc32 } from "./crc32.js";
import {
  fileStamp,
  keepLineOf,
  keptContentHashes,
  readFileEntries,
  LARGE_FILE_BYTES,
  unchangedEntries,
  writeFileEntries,
  type EntryFileCache,
  type FileEntries,
  type FileTail,
  type KeptFileEntries,
} from "./caches/entry-file-cache.js";
import { readCommittedFiles } from "./read-committed-files.js";
import { decodeText, readTextFile } from "./read-text-file.js";
import { readUserFile } from "./read-user-file.js";
import { redactEntriesRead } from "./redact-entries-read.js";
import { statOrNull } from "./stat-or-null.js";
import type { StoreWarning } from "./store-warning.js";

export interface EntriesRead {
  /** Entries of anti-patterns.md, patterns.md, heuristics.md, in that order. */
  entries: Entry[];
  warnings: StoreWarning[];
  /** With a cache: the terms kept with the entries (packed with their file's), by entry, for `buildRelevanceIndex`. */
  terms?: Map<Entry, PackedEntryTerms>;
  /** With a cache and `terms`: each file as it was read, in the entries' order (`MemoryFileRead`). */
  files?: MemoryFileRead[];
}

/**
 * A memory file as a read with a cache found it: its stamp when what was read is what is kept
 * (null: no file; absent: read but not kept), and its tail (a large file's). What an injection
 * keeps with its ranking, so that the next start, when this file alone has grown since, reads the
 * learnings appended and not the rest (`extendSessionInjection`).
 */
export interface MemoryFileRead {
  path: string;
  scope: Scope;
  category: Category;
  stamp?: string | null;
  tail?: FileTail;
  /** Its entries, as read (secrets redacted). */
  entries: readonly Entry[];
}

export interface ReadEntryFilesOptions {
  /** Replace every secret with `[REDACTED]`, with a warning naming `redact` as where to remove it from ("the store"). */
  redact?: string;
  /**
   * Keep each file's (redacted) entries in this cache, and take them from it while the file is
   * unchanged: a read after an edit parses only the file that changed. Only with `redact`: raw
   * entries (secrets included) are never written to a cache.
   */
  cache?: EntryFileCache;
  /** With `cache`: give the terms kept with the entries (`EntriesRead.terms`), for relevance's index. */
  terms?: boolean;
}

/**
 * Reads the three category files of one folder; missing files are simply empty. They are read
 * as one commit left them (see `readCommittedFiles`): all before a promotion or all after it.
 */
export async function readEntryFiles(directory: string, scope: Scope, options: ReadEntryFilesOptions = {}): Promise<EntriesRead> {
  const paths = CATEGORIES.map((category) => join(directory, `${category}.md`));
  const results = await readCommittedFiles(
    directory,
    paths,
    (path, target, appended) => readEntryFile({ path, isTarget: target === path, appended }, { scope, category: CATEGORIES[paths.indexOf(target)]! }, options),
    { inThread: options.cache?.inThread === true },
  );
  const entries: Entry[] = [];
  const warnings: StoreWarning[] = [];
  // Warnings of reading first, then those of the secrets redacted, file by file, as they always came.
  for (const result of results) {
    // A loop, not push(...array): a bank of 125,000 entries has more than a call has room for.
    for (const entry of result.entries) entries.push(entry);
    for (const warning of result.warnings) warnings.push(warning);
  }
  for (const result of results) for (const warning of result.redactions) warnings.push(warning);
  if (options.terms !== true || options.cache === undefined || options.redact === undefined) return { entries, warnings };
  // An entry parsed now that an earlier version of its file did not hold has none: the index tokenizes it.
  const terms = new Map<Entry, PackedEntryTerms>();
  for (const result of results)
    result.entries.forEach((entry, at) => {
      const kept = result.terms[at];
      if (kept !== undefined) terms.set(entry, kept);
    });
  const files = results.map(({ stamp, tail, entries }, at): MemoryFileRead => ({ path: paths[at]!, scope, category: CATEGORIES[at]!, ...(stamp === undefined ? {} : { stamp }), ...(tail === undefined ? {} : { tail }), entries }));
  return { entries, warnings, terms, files };
}

// One category file: from the cache when it is unchanged since it was kept (never a commit's
// temporary, which `target` is not, nor a file a commit is appending to), else read, parsed,
// redacted and kept — what an earlier version of it held unchanged taken from that version's
// cache, not redacted and tokenized again.
async function readEntryFile(
  { path, isTarget, appended }: { path: string; isTarget: boolean; appended: PendingAppend | undefined },
  file: { scope: Scope; category: Category },
  options: ReadEntryFilesOptions,
): Promise<FileEntries> {
  const cache = options.redact !== undefined && isTarget && appended === undefined ? options.cache : undefined;
  const how = `${file.scope} ${file.category} ${options.redact}`;
  const now = cache?.now ?? Date.now;
  const inThread = options.cache?.inThread === true;
  const state = cache === undefined ? null : await fileStamp(path, now(), inThread);
  const kept = cache !== undefined && state !== null ? await readFileEntries(cache, path, state.stamp, how) : null;
  if (kept?.current === true) return { ...kept, stamp: state!.stamp };
  const result = cache === undefined ? await readTextFile(path, { appended, inThread }) : await readUserFile(path, { inThread });
  if ("warning" in result) return { entries: [], warnings: [result.warning], redactions: [], terms: [] };
  if ("missing" in result) return { entries: [], warnings: [], redactions: [], terms: [], ...(cache === undefined ? {} : { stamp: null }) };
  // A file that only grew since it was kept (a learning appended) is parsed from its last kept
  // entry on: the entries before it are the kept ones, as they were redacted and numbered; its
  // text is decoded from that entry's line on where the kept tail says where that line starts.
  const bytes = "bytes" in result ? result.bytes : undefined;
  const resumed = kept === null || bytes === undefined ? null : grownFrom(bytes, kept);
  const { text, lineStart } = "text" in result ? { text: result.text, lineStart: 0 } : grownFileText(bytes!, resumed, kept);
  // Where the parse starts in `text`: the resume point, or the start of the text decoded from it.
  const resume = resumed === null ? undefined : lineStart === 0 ? resumed.resume : { ...resumed.resume, offset: 0 };
  const from = resumed === null ? 0 : resumed.resume.filePosition - 1;
  // What the entries parsed are matched against: all kept, or those from the point parsed from
  // (the entries before it, kept as they were, are left unread).
  const earlier = kept === null ? null : from === 0 ? kept : { ...kept, entries: kept.entries.slice(from) };
  const parsed = parseKnowledgeBank(text, { ...file, path, ...(earlier === null ? {} : { knownHashes: keptContentHashes(earlier) }), ...(resume === undefined ? {} : { from: resume }) });
  const matched = earlier === null ? [] : unchangedEntries(parsed.entries, earlier).map((at) => (at === undefined ? undefined : from + at));
  const unchanged = [...(kept?.terms.slice(0, from) ?? []), ...matched.map((at) => (at === undefined ? undefined : kept!.terms[at]))];
  const read = options.redact === undefined ? parsed : redactEntriesRead(parsed, options.redact, (at) => unchanged[from + at] !== undefined);
  // An unchanged entry still where it was is written again as the line it was kept on.
  matched.forEach((at, position) => at !== undefined && keepLineOf(read.entries[position]!, kept!.entries[at]!));
  // The kept warnings of the lines before the point parsed from: those of the rest come from the parse.
  const before = (warning: StoreWarning) => resumed !== null && warning.line !== undefined && warning.line < resumed.resume.line;
  const all = {
    entries: from === 0 ? read.entries : [...kept!.entries.slice(0, from), ...read.entries],
    warnings: [...(kept?.warnings.filter(before) ?? []), ...read.warnings.slice(0, parsed.warnings.length)],
    redactions: [...(kept?.redactions.filter(before) ?? []), ...read.warnings.slice(parsed.warnings.length)],
  };
  // Kept only when the file had settled and did not change while it was read; with the terms
  // relevance's index reads, worked out once for every later read and numbered in the file's
  // vocabulary (the earlier version's, grown: the unchanged entries' numbers stay as they were).
  const keep = cache !== undefined && (cache.readOnly !== true || cache.unkept !== undefined) && state !== null && state.settled && (await fileStamp(path, now(), inThread))?.stamp === state.stamp;
  if (!keep) return { ...all, terms: unchanged };
  // A large file (its bytes here) is kept with its tail and to be read lazily.
  const large = bytes !== undefined && bytes.length >= (cache.largeFileBytes ?? LARGE_FILE_BYTES) ? bytes : null;
  const tail = large === null ? undefined : fileTail({ text, lineStart, resume }, large, all.entries, resumed);
  if (cache.readOnly === true) {
    // Left to another to keep (`unkept`); where it was read to all the same, as a kept file's
    // tail says it, for what an output keeps to read the learnings appended later alone (`injectionGrowth`).
    cache.unkept!(path);
    return { ...all, terms: unchanged, ...(tail === undefined ? {} : { tail }) };
  }
  const packed = compactVocabulary(packedTerms(all.entries, unchanged, kept));
  const entries = { ...all, terms: packed.entryTerms(), ...(tail === undefined ? {} : { tail }) };
  await writeFileEntries(cache, path, state.stamp, how, { ...entries, packed }, { lazy: large !== null });
  return { ...entries, stamp: state.stamp };
}

/**
 * Where a read of a large memory file left off (`readAppendedEntries`): its tail as a file's
 * cache keeps it (`FileTail`), and its last entry as `JSON.stringify` gives it.
 */
export interface ReadMark {
  tail: FileTail;
  last: string;
}

/**
 * The entries appended to the memory file at `path` since a read left `mark`, with the mark of
 * the file as it is now (`parseAppendedEntries`). Null for anything else, or a commit's journal
 * beside it (its files are read as the commit leaves them: `readCommittedFiles`), for the caller
 * to read it whole.
 *
 * @example
 * const appended = await readAppendedEntries(path, { scope: "local", category: "heuristics" }, mark);
 * appended?.entries; // [the learning appended]
 */
export async function readAppendedEntries(
  path: string,
  file: { scope: Scope; category: Category },
  mark: ReadMark,
  options: { inThread?: boolean } = {},
): Promise<{ entries: Entry[]; mark: ReadMark } | null> {
  const inThread = options.inThread === true;
  if ((await statOrNull(join(dirname(path), COMMIT_JOURNAL), { inThread })) !== null) return null;
  const read = await readUserFile(path, { inThread });
  if (!("bytes" in read)) return null;
  const appended = parseAppendedEntries(read.bytes, { ...file, path }, mark);
  if (appended === null) return null;
  const { entries, parsed, read: parse, resumed } = appended;
  const tail = fileTail(parse, read.bytes, parsed, resumed);
  return tail === undefined ? null : { entries, mark: { tail, last: JSON.stringify(entries.at(-1)) } };
}

/**
 * The entries appended to a memory file (its `bytes`) since a read left `mark`: where it is the
 * file read then (its first bytes those the tail's CRC-32 names) with lines after its last entry,
 * which parse as that entry unchanged and at least one more, none of them warning or holding a
 * secret. With all it parsed (that entry first) and from what, for the tail of the file as it is now (`fileTail`). Null for
 * anything else — the file no longer, changed before its end, cut in an entry, warned about.
 * What `readAppendedEntries` and a session start that grows its injection (`extendSessionInjection`) read.
 *
 * @example
 * parseAppendedEntries(bytes, { scope: "local", category: "heuristics", path }, mark)?.entries; // [the learning appended]
 */
export function parseAppendedEntries(
  bytes: Uint8Array,
  file: { scope: Scope; category: Category; path: string },
  mark: ReadMark,
): { entries: Entry[]; parsed: Entry[]; read: { text: string; lineStart: number; resume: ParseResume }; resumed: FileTail } | null {
  if (bytes.length <= mark.tail.bytes) return null;
  const resumed = grownFrom(bytes, mark);
  if (resumed === null) return null;
  const last = JSON.parse(mark.last) as Entry;
  const { text, lineStart } = grownText(bytes, resumed, () => last.headerLine);
  const resume = lineStart === 0 ? resumed.resume : { ...resumed.resume, offset: 0 };
  const parsed = parseKnowledgeBank(text, { scope: file.scope, category: file.category, path: file.path, knownHashes: new Map([[last.description, last.contentHash]]), from: resume });
  const [again, ...appended] = parsed.entries;
  if (parsed.warnings.length > 0 || again === undefined || appended.length === 0 || JSON.stringify(again) !== mark.last) return null;
  for (const entry of parsed.entries) if (redactEntry(entry).kinds.length > 0) return null;
  return { entries: appended, parsed: parsed.entries, read: { text, lineStart, resume }, resumed };
}

// Where the file read (`bytes`) is the kept one with more appended: the kept tail, its checksum
// found again in the file's first bytes. Null when the file is another (shorter, or changed
// before its end).
function grownFrom(bytes: Uint8Array, kept: Pick<KeptFileEntries, "tail">): FileTail | null {
  const { tail } = kept;
  if (tail === undefined || bytes.length < tail.bytes) return null;
  return crc32(bytes.subarray(0, tail.bytes)) === tail.checksum ? tail : null;
}

// The tail a large file's entries are kept with: its checksum (going on from that of the bytes
// it grew from), where its last entry starts (searched for from where the kept one started) in
// the text and, when no carriage return makes the text parsed other than the text decoded, in
// the bytes. `read` is the text decoded (from `lineStart` in the bytes on: the line of the kept
// resume point) and where its parse started.
function fileTail(read: { text: string; lineStart: number; resume: ParseResume | undefined }, bytes: Uint8Array, entries: readonly Entry[], resumed: FileTail | null): FileTail | undefined {
  const found = resumePoint(read.text, entries, read.resume);
  if (found === null) return undefined;
  const checksum = resumed === null ? crc32(bytes) : crc32(bytes.subarray(resumed.bytes), resumed.checksum);
  // Found in a text decoded from the kept line on: its offset in the whole text is from there.
  const resume = read.lineStart === 0 ? found : { ...found, offset: resumed!.resume.offset + found.offset };
  // The text decoded whole had its BOM dropped; one decoded from a line on has none.
  const before = read.lineStart > 0 ? read.lineStart : bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const lineStart = read.text.includes("\r") ? undefined : before + Buffer.byteLength(read.text.slice(0, found.offset));
  return { bytes: bytes.length, checksum, resume, ...(lineStart === undefined ? {} : { lineStart }) };
}

/**
 * A memory file's text: decoded from the kept tail's line on (`lineStart`, its position in
 * `bytes`) when the file grew from the kept one (`resumed`) and that line is the kept last
 * entry's header line, else whole (`lineStart` 0: a damaged cache's line start is not taken on
 * trust).
 *
 * @example
 * const { text, lineStart } = grownFileText(bytes, grownFrom(bytes, kept), kept);
 */
export function grownFileText(bytes: Uint8Array, resumed: FileTail | null, kept: Pick<KeptFileEntries, "entries"> | null): { text: string; lineStart: number } {
  return grownText(bytes, resumed, () => kept!.entries[resumed!.resume.filePosition - 1]!.headerLine);
}

/**
 * `grownFileText`, with the kept last entry's header line given by `lastHeaderLine` (read only
 * when the tail says where its line starts).
 *
 * @example
 * grownText(bytes, tail, () => lastKept.headerLine);
 */
export function grownText(bytes: Uint8Array, resumed: FileTail | null, lastHeaderLine: () => string): { text: string; lineStart: number } {
  const at = resumed?.lineStart;
  if (at !== undefined && at > 0 && at < bytes.length && bytes[at - 1] === 0x0a) {
    const text = decodeText(bytes.subarray(at));
    const header = lastHeaderLine();
    if (text.startsWith(header) && (text.length === header.length || text.charCodeAt(header.length) === 0x0a)) return { text, lineStart: at };
  }
  return { text: decodeText(bytes), lineStart: 0 };
}

// The terms of a file's entries as it is kept, numbered in the vocabulary it was kept with,
// grown by the terms of the entries it did not hold. The kept entries still where they were at
// its beginning (a file that only grew: all but the learnings appended) are taken as they were
// packed, without a list made of each; any other kept entry by its numbers; a new one, and one
// whose kept words are not all its vocabulary's (one damaged where it was kept), tokenized.
function packedTerms(entries: readonly Entry[], unchanged: ReadonlyArray<PackedEntryTerms | undefined>, kept: KeptFileEntries | null): PackedTerms {
  let first = 0;
  while (kept !== null && first < entries.length && unchanged[first]?.packed === kept.packed && unchanged[first]!.at === first) first++;
  // Packed from the `from`-th entry on, after the kept ones before it.
  const packedFrom = (from: number): PackedTerms | null => {
    const vocabulary = [...(kept?.packed.vocabulary ?? [])];
    const positions = new Map(vocabulary.map((term, at) => [term, at]));
    const lists = entries.slice(from).map((entry, index) => {
      const known = unchanged[from + index];
      return (known === undefined ? null : known.packed.numbersAt(known.at)) ?? numberTerms(entryFieldTerms(entry), vocabulary, positions);
    });
    return from === 0 ? PackedTerms.pack(vocabulary, lists) : kept!.packed.extend(from, vocabulary, lists);
  };
  // Numbers of its vocabulary, every one (the kept ones were checked as they were read).
  return (first > 0 ? packedFrom(first) : null) ?? packedFrom(0)!;
}

// A vocabulary that only grows keeps the terms of entries since edited away: once those are
// more than the terms in use (and a thousand), the file's terms are numbered anew.
function compactVocabulary(packed: PackedTerms): PackedTerms {
  const { vocabulary } = packed;
  const count = packed.termsUsed();
  if (vocabulary.length - count <= count + 1000) return packed;
  const fresh: string[] = [];
  const positions = new Map<string, number>();
  const terms = Array.from({ length: packed.count }, (_, at) => numberTerms(numberedFieldTerms({ packed, at })!, fresh, positions));
  return PackedTerms.pack(fresh, terms)!;
}
