// Python's str.split()/str.strip() whitespace (str.isspace()), which is not JS's `\s`:
// it includes U+001C–U+001F and U+0085 and excludes U+FEFF. Hashes must match Python's byte for byte.
const PYTHON_WHITESPACE_CLASS =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const WHITESPACE_RUN = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]+`, "g");
const EDGE_WHITESPACE = new RegExp(`^[${PYTHON_WHITESPACE_CLASS}]+|[${PYTHON_WHITESPACE_CLASS}]+$`, "g");

/** Python's `" ".join(text.split())`. */
export function collapsePythonWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, " ").replace(/^ | $/g, "");
}

/** Python's `text.strip()`. */
export function stripPythonWhitespace(text: string): string {
  return text.replace(EDGE_WHITESPACE, "");
}
