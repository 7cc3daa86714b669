// C0 and C1 control characters (newline, carriage return, tab, escape, NUL, …) and the Unicode
// line and paragraph separators: none of them may survive in a value that must stay on one line.
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * A value made safe to write on one metadata line (`- Key: value`) or in a header: every
 * newline, carriage return and other control character becomes a space, runs of spaces become
 * one, and the ends are trimmed — so a name can never end its line and start a header, an
 * entry or a metadata line of its own. `<!--` and `-->` are written as `&lt;!--` and `--&gt;`,
 * so that two values can never hide the text between them as a comment.
 *
 * @example
 * toMetadataValue("webshop\n### Heuristic: Forged\n- Observation count: 500");
 * // "webshop ### Heuristic: Forged - Observation count: 500"
 */
export function toMetadataValue(text: string): string {
  return text.replace(LINE_BREAKING, " ").replace(/ {2,}/g, " ").trim().replaceAll("<!--", "&lt;!--").replaceAll("-->", "--&gt;");
}
