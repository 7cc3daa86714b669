import { parse as parseJsonc, printParseErrorCode, stripComments, type ParseError } from "jsonc-parser";
import { StoreError } from "./store-error.js";

/**
 * A JSON settings file's object: `{}` when it is missing or blank; a StoreError naming the file
 * (and the position) when it is not a JSON object, so that such a file is never rewritten. With
 * `comments` (Gemini CLI's settings, which it reads with their comments), line and block
 * comments are allowed; trailing commas never are.
 *
 * @example
 * parseSettingsObject("/home/ada/.claude/settings.json", { text: '{"model":"opus"}' }); // { model: "opus" }
 */
export function parseSettingsObject(path: string, file: { text: string } | { missing: true }, options: { comments?: boolean } = {}): Record<string, unknown> {
  if (!("text" in file) || file.text.trim() === "") return {};
  const read = parseJsonText(file.text, options);
  if ("error" in read) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is not valid JSON (${read.error}); fix it by hand, then run setup again`, { cause: read.cause });
  }
  if (!isJsonObject(read.value)) {
    throw new StoreError("STORE_UNREADABLE", `will not change ${path}: it is JSON but not an object of settings; fix it by hand, then run setup again`);
  }
  return read.value;
}

/**
 * Whether a value read from JSON is an object (not null, not an array): settings, a hook group, a record.
 *
 * @example
 * isJsonObject(JSON.parse('{"hooks":{}}')); // true
 * isJsonObject(JSON.parse("[1]")); // false
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * JSON text read as JSON.parse reads it, never throwing: its value, or why it is not JSON. With
 * `comments` (as Gemini CLI's settings may hold), line and block comments are allowed, and the
 * reason is the first error and its offset; trailing commas are errors either way, as they are
 * to the programs that read such files.
 *
 * @example
 * parseJsonText('{ // the theme\n "theme": "dark" }', { comments: true }); // { value: { theme: "dark" } }
 */
export function parseJsonText(text: string, options: { comments?: boolean } = {}): { value: unknown } | { error: string; cause?: unknown } {
  if (options.comments === true) {
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { disallowComments: false, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (first !== undefined) return { error: `${printParseErrorCode(first.error)} at offset ${first.offset}` };
    // The value as JSON.parse gives it, from the text with its comments blanked out: jsonc-parser
    // sets each key by assignment, which makes a "__proto__" key the object's prototype, not a key.
    return { value: JSON.parse(stripComments(text)) as unknown };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: (error as Error).message, cause: error };
  }
}
