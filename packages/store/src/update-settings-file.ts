import { isDeepStrictEqual } from "node:util";
import { applyEdits, createScanner, findNodeAtLocation, format, modify, parseTree, type Edit, type FormattingOptions, type JSONPath } from "jsonc-parser";
import { isJsonObject, parseJsonText, parseSettingsObject } from "./parse-settings-object.js";
import { StoreError } from "./store-error.js";
import { updateTextFile } from "./update-text-file.js";

/**
 * Rewrites a JSON settings file through `change`, atomically, keeping a backup of the previous
 * version beside it (`<file>.iflow-memory.bak`). A missing file is `{}`; a file that is not a
 * JSON object is never touched (the error names the file and the position). A symbolic link (a
 * dotfiles repository) stays a link: its target is rewritten. With `comments` (Gemini CLI's
 * settings), a file may hold comments: one that does is changed only where its settings change,
 * its comments and layout kept, and checked to read back as the changed settings before it is
 * written; one without is written as any other. The result holds the `text` written (or, with
 * `dryRun`, that would be).
 *
 * @example
 * await updateSettingsFile("/home/ada/.claude/settings.json", (settings) => ({ settings: next, changed: true }));
 */
export async function updateSettingsFile<T extends { changed: boolean }>(
  path: string,
  change: (settings: Record<string, unknown>) => T & { settings: Record<string, unknown> },
  options: { dryRun?: boolean; comments?: boolean } = {},
): Promise<T & { settings: Record<string, unknown>; text: string; backup: string | null }> {
  // A file another program writes too (Claude Code's ~/.claude.json): if it changed while the
  // change was computed, `updateTextFile` starts again from its new content rather than write over it.
  return await updateTextFile(
    path,
    (text) => {
      const before = parseSettingsObject(path, text === null ? { missing: true } : { text }, { comments: options.comments === true });
      const changed = change(before);
      return { ...changed, text: settingsText(path, text, before, changed.settings, options.comments === true) };
    },
    options,
  );
}

/**
 * The text a settings file is written with when its settings `before` become `after`: 2-space
 * JSON; with `comments`, a file that holds comments (`text`) changed only where the settings
 * change, comments and layout kept (refused with a `StoreError` when they cannot be).
 *
 * @example
 * settingsText("settings.json", null, {}, { theme: "GitHub" }, false); // '{\n  "theme": "GitHub"\n}\n'
 */
export function settingsText(path: string, text: string | null, before: Record<string, unknown>, after: Record<string, unknown>, comments: boolean): string {
  const commented = comments && text !== null && text.trim() !== "" && !("value" in parseJsonText(text));
  return commented ? editedSettings(path, text, before, after) : `${JSON.stringify(after, null, 2)}\n`;
}

// The text of a settings file with comments, changed where `before` and `after` differ and
// nowhere else. Refused (nothing written) if it would not read back as `after`.
function editedSettings(path: string, text: string, before: Record<string, unknown>, after: Record<string, unknown>): string {
  const formatting = formattingOf(text);
  let edited = text;
  for (const [at, value, insertion] of changesBetween(before, after, [])) {
    const edits = value === undefined && typeof at.at(-1) === "number" ? elementRemoval(edited, at) : modify(edited, at, value, { isArrayInsertion: insertion });
    for (const edit of edits) edited = applyEdited(edited, edit, formatting);
  }
  // As the settings read back from JSON (what the file can hold: no -0, plain objects).
  const read = parseJsonText(edited, { comments: true });
  if (!("value" in read) || !isDeepStrictEqual(read.value, JSON.parse(JSON.stringify(after)))) {
    throw new StoreError("STORE_WRITE_FAILED", `will not change ${path}: its comments could not be kept through the change; remove them, or make the change by hand`);
  }
  return edited;
}

// Applies one edit, and lays out what it wrote and nothing else: a value added after an element
// or a key on a line that ends with a comment goes on a line of its own after that comment (the
// comment stays with what it was written beside).
function applyEdited(text: string, edit: Edit, formatting: FormattingOptions): string {
  let { offset, length, content } = edit;
  // What is removed (an element, a key) takes its comma with it, but never a comment: one after
  // the comma belongs to what it follows, and one of the removed value is the user's.
  if (content === "" && length > 0) {
    const rest = text.slice(offset + length);
    return `${text.slice(0, offset)}${commentsIn(text.slice(offset, offset + length), rest)}${rest}`;
  }
  const comment = length === 0 && content.startsWith(",") ? /^[ \t]*\/\/[^\r\n]*/.exec(text.slice(offset)) : null;
  if (comment !== null) {
    text = `${text.slice(0, offset)},${text.slice(offset)}`;
    offset += 1 + comment[0].length;
    content = `${formatting.eol ?? "\n"}${content.slice(1).trimStart()}`;
  }
  const next = `${text.slice(0, offset)}${content}${text.slice(offset + length)}`;
  if (content === "") return next;
  return applyEdits(next, format(next, { offset, length: content.length }, { ...formatting, keepLines: false }));
}

// jsonc-parser's SyntaxKind (an ambient const enum, which this build cannot read).
const TOKEN = { lineComment: 12, blockComment: 13, lineBreak: 14, space: 15, end: 17 } as const;

// The removal of an array's element at `at`: from the end of the one before it (with the comma
// between them), or, for the first, to the start of the next; exactly the element when alone.
// (jsonc-parser's leaves the last element's last character when no space comes before the "]".)
function elementRemoval(text: string, at: JSONPath): Edit[] {
  const node = findNodeAtLocation(parseTree(text)!, at);
  const siblings = node?.parent?.children;
  if (node === undefined || siblings === undefined) return [];
  const index = siblings.indexOf(node);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  const start = previous === undefined ? node.offset : previous.offset + previous.length;
  const end = previous === undefined && next !== undefined ? next.offset : node.offset + node.length;
  return [{ offset: start, length: end - start, content: "" }];
}

// The comments in a span of JSON text, each with the space and line breaks before it, and the
// line break that ends the span (what comes after it stays on a line of its own; after a line
// comment, always: `following` is what comes after the span).
function commentsIn(span: string, following: string): string {
  const scanner = createScanner(span, false);
  let kept = "";
  let gap = "";
  let lineComment = false;
  for (let token = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    // The token's text as it is in the span (the scanner's value of a comment is not).
    const text = span.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength());
    if (token === TOKEN.space || token === TOKEN.lineBreak) gap += text;
    else if (token === TOKEN.lineComment || token === TOKEN.blockComment) {
      kept += gap + text;
      gap = "";
      lineComment = token === TOKEN.lineComment;
    } else gap = "";
  }
  if (/[\r\n]/.test(gap)) return kept + gap;
  // A line comment kept ends its line: what follows the span must not become part of it.
  return lineComment && !/^[ \t]*[\r\n]/.test(following) ? `${kept}\n` : kept;
}

// The indentation the file's first indented line uses (two spaces when none is).
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return indent.startsWith("\t") ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

// Where `after` differs from `before`, as the fewest edits: a key added, changed or removed; an
// array's elements added at its end or removed, each on its own; any other array whole.
function* changesBetween(before: unknown, after: unknown, at: JSONPath): Generator<[JSONPath, unknown, boolean]> {
  if (isDeepStrictEqual(before, after)) return;
  if (isJsonObject(before) && isJsonObject(after)) {
    for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) yield [[...at, key], undefined, false];
    for (const [key, value] of Object.entries(after)) {
      if (Object.hasOwn(before, key)) yield* changesBetween(before[key], value, [...at, key]);
      else yield [[...at, key], value, false];
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length === after.length) {
      for (let index = 0; index < after.length; index++) yield* changesBetween(before[index], after[index], [...at, index]);
      return;
    }
    if (before.length < after.length && before.every((item, index) => isDeepStrictEqual(item, after[index]))) {
      for (let index = before.length; index < after.length; index++) yield [[...at, index], after[index], true];
      return;
    }
    const kept = keptIndexes(before, after);
    if (kept !== null) {
      for (let index = before.length - 1; index >= 0; index--) if (!kept.has(index)) yield [[...at, index], undefined, false];
      return;
    }
  }
  yield [at, after, false];
}

// The indexes of `before` that `after` keeps, in order, when `after` is `before` with some elements removed; else null.
function keptIndexes(before: readonly unknown[], after: readonly unknown[]): Set<number> | null {
  const kept = new Set<number>();
  let next = 0;
  for (let index = 0; index < before.length && next < after.length; index++) {
    if (isDeepStrictEqual(before[index], after[next])) {
      kept.add(index);
      next++;
    }
  }
  return next === after.length ? kept : null;
}
