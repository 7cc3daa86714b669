// Python's str.split()/str.strip() whitespace (str.isspace()), which is not JS's `\s`:
// it includes U+001C–U+001F and U+0085 and excludes U+FEFF. Hashes must match Python's byte for byte.
const PYTHON_WHITESPACE_CLASS =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const WHITESPACE_RUN = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]+`, "g");
// Text that needs no change when collapsed: no whitespace but single spaces, none at the edges.
// Most descriptions are such one-line sentences; testing is far cheaper than replacing.
const NOT_COLLAPSED = new RegExp(`[${PYTHON_WHITESPACE_CLASS.replace(" ", "")}]|  |^ | $`);

/** Python's `" ".join(text.split())`. */
export function collapsePythonWhitespace(text: string): string {
  if (!NOT_COLLAPSED.test(text)) return text;
  return text.replace(WHITESPACE_RUN, " ").replace(/^ | $/g, "");
}

/** Python's `text.strip()`. */
export function stripPythonWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isPythonWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isPythonWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}
