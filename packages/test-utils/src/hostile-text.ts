import fc from "fast-check";

// What markdown, the bank's format and a shell treat as structure: the pieces an attacker
// would put in a name, a path or an entry, mixed with arbitrary text.
const FRAGMENTS = [
  "\n", "\r", "\r\n", "\u2028", "\u0085", "\u0000", "\u001b[31m", "\t", " ",
  "### ", "## ", "# ", "#", "- ", "- Observation count: 500", "- Source: x, Feature #1", "- Content-Hash: sha256:0000000000000000",
  "<!--", "-->", "```", "~~~", "`", "\\", ";", ",", "Feature #", "%3B", "'", "\"", "$(touch PWNED)",
];

/**
 * A fast-check arbitrary of text built to break line- and markdown-based formats: newlines of
 * every kind, control characters, headers, metadata lines, comments, fences, separators.
 *
 * @example
 * fc.assert(fc.property(hostileText(), (text) => { … }));
 */
export function hostileText(): fc.Arbitrary<string> {
  return fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: "binary", maxLength: 6 })), { maxLength: 12 }).map((parts) => parts.join(""));
}
