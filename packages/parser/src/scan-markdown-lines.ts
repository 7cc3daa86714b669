/** One line of a markdown file after HTML comments are removed (a line a comment spans is joined into it). */
interface ScannedLine {
  text: string;
  /** 1-based line number in the original text where this line starts. */
  line: number;
  /** True for a fenced code block's delimiters and content: never a header, never metadata. */
  fenced: boolean;
}

/**
 * The scanned lines as columns (index i is one line): a file of 50,000 entries has half a
 * million lines, and one object per line was most of the parser's time and garbage.
 */
export interface ScanResult {
  texts: string[];
  /** 1-based line number in the original text where each line starts. */
  lineNumbers: number[];
  /** True for a fenced code block's delimiters and content: never a header, never metadata. */
  fenced: boolean[];
  warnings: { message: string; line: number }[];
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Splits markdown into lines, removing HTML comments `<!-- … -->` the way the original did
 * (non-greedy, across lines, the lines inside joined away) except inside code spans and fenced
 * code blocks, where they are text. An unterminated `<!--` is kept as text. `firstLine` is the
 * number of the text's first line (a text that is the rest of a file from that line on).
 */
export function scanMarkdownLines(text: string, firstLine = 1): ScanResult {
  const source = text.split("\n");
  // Most files have no comment at all: then no line needs the comment scan or its offsets.
  const hasComments = text.includes("<!--");
  // Whether a comment opened at some offset is ever closed is one comparison with the last "-->"
  // (searching the rest of the text for each unclosed "<!--" was quadratic).
  const lastClose = hasComments ? text.lastIndexOf("-->") : -1;
  const lineOffsets: number[] = [];
  if (hasComments) {
    let offset = 0;
    for (const line of source) {
      lineOffsets.push(offset);
      offset += line.length + 1;
    }
  }

  const texts: string[] = [];
  const lineNumbers: number[] = [];
  const fenced: boolean[] = [];
  const push = (line: ScannedLine): void => {
    texts.push(line.text);
    lineNumbers.push(line.line);
    fenced.push(line.fenced);
  };
  const warnings: ScanResult["warnings"] = [];
  let fence: { marker: string; length: number; line: number } | null = null;
  let pending: ScannedLine | null = null;

  for (let index = 0; index < source.length; index++) {
    const raw = source[index] ?? "";
    const lineNumber = index + firstLine;

    if (pending !== null) {
      // Inside a comment that started on an earlier line: resume after its end.
      const end = raw.indexOf("-->");
      if (end < 0) continue;
      const closed = appendOutsideComments(pending, raw.slice(end + 3), lineOffsets[index]! + end + 3, lastClose);
      if (closed) {
        push(pending);
        pending = null;
      }
      continue;
    }

    if (fence !== null) {
      texts.push(raw);
      lineNumbers.push(lineNumber);
      fenced.push(true);
      if (isFenceClose(raw, fence)) fence = null;
      continue;
    }

    const open = mayOpenFence(raw) ? FENCE_OPEN.exec(raw) : null;
    if (open && !(open[1]!.startsWith("`") && open[2]!.includes("`"))) {
      fence = { marker: open[1]![0]!, length: open[1]!.length, line: lineNumber };
      texts.push(raw);
      lineNumbers.push(lineNumber);
      fenced.push(true);
      continue;
    }

    if (!hasComments) {
      texts.push(raw);
      lineNumbers.push(lineNumber);
      fenced.push(false);
      continue;
    }
    const current: ScannedLine = { text: "", line: lineNumber, fenced: false };
    if (appendOutsideComments(current, raw, lineOffsets[index]!, lastClose)) push(current);
    else pending = current;
  }

  if (fence !== null) {
    warnings.push({
      message: `code fence opened at line ${fence.line} is never closed; everything after it is read as code`,
      line: fence.line,
    });
  }
  return { texts, lineNumbers, fenced, warnings };
}

/** A cheap pre-check for FENCE_OPEN: up to three spaces, then a backtick or a tilde. */
function mayOpenFence(raw: string): boolean {
  let index = 0;
  while (index < 3 && raw.charCodeAt(index) === 0x20) index++;
  const code = raw.charCodeAt(index);
  return code === 0x60 || code === 0x7e;
}

function isFenceClose(raw: string, fence: { marker: string; length: number }): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(raw);
  return match !== null && match[1]![0] === fence.marker && match[1]!.length >= fence.length;
}

/**
 * Appends `segment` to `target.text`, skipping HTML comments outside code spans.
 * Returns false when a comment stays open past the end of the segment (it continues on later
 * lines); `absoluteOffset` is where the segment starts in the whole text, and `lastClose` where
 * the whole text's last "-->" starts, to check that a comment ends at all. Linear in the
 * segment's length, whatever its backtick runs.
 */
function appendOutsideComments(target: ScannedLine, segment: string, absoluteOffset: number, lastClose: number): boolean {
  const special = /`+|<!--/g;
  let runs: BacktickRuns | null = null;
  let copiedUpTo = 0;
  let match: RegExpExecArray | null;
  while ((match = special.exec(segment)) !== null) {
    const position = match.index;
    if (match[0] !== "<!--") {
      // A code span: copied verbatim through its closing run of the same length, if any.
      runs ??= new BacktickRuns(segment);
      const close = runs.next(match[0].length, special.lastIndex);
      if (close >= 0) special.lastIndex = close + match[0].length;
      continue;
    }
    const end = segment.indexOf("-->", position + 4);
    if (end >= 0) {
      target.text += segment.slice(copiedUpTo, position);
      copiedUpTo = end + 3;
      special.lastIndex = copiedUpTo;
      continue;
    }
    if (lastClose < absoluteOffset + position + 4) {
      // Never terminated: the original's non-greedy regex leaves it as text.
      break;
    }
    target.text += segment.slice(copiedUpTo, position);
    return false;
  }
  target.text += segment.slice(copiedUpTo);
  return true;
}

/**
 * The backtick runs of a line, by length, for finding the run that closes a code span: the
 * line is scanned once, and each length's cursor only moves forward (a search to the end of
 * the line for every unclosed run was quadratic on a line of runs of many lengths).
 */
class BacktickRuns {
  private readonly starts = new Map<number, number[]>();
  private readonly cursors = new Map<number, number>();

  constructor(segment: string) {
    let position = segment.indexOf("`");
    while (position >= 0) {
      let runEnd = position;
      while (segment.charCodeAt(runEnd) === 0x60) runEnd++;
      const length = runEnd - position;
      const list = this.starts.get(length);
      if (list === undefined) this.starts.set(length, [position]);
      else list.push(position);
      position = segment.indexOf("`", runEnd);
    }
  }

  /** Where the first run of exactly `length` backticks at or after `from` starts, or -1. */
  next(length: number, from: number): number {
    const list = this.starts.get(length);
    if (list === undefined) return -1;
    let cursor = this.cursors.get(length) ?? 0;
    while (cursor < list.length && list[cursor]! < from) cursor++;
    this.cursors.set(length, cursor);
    return cursor < list.length ? list[cursor]! : -1;
  }
}
