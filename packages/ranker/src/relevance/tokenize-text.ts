import { stemmer } from "stemmer";
import { STOP_WORDS } from "./stop-words.js";

// A word is a run of letters and digits; everything else (space, punctuation, `/ . _ - #`)
// separates words, so a path or an identifier falls apart into its parts.
const NOT_WORD = /[^\p{L}\p{N}]+/u;
// Where camelCase and PascalCase words meet: "askUser" → "ask" "User", "HTTPServer" → "HTTP" "Server".
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const DIGITS = /^\p{N}+$/u;

/**
 * Splits text — prose, a prompt, a branch name, a file path, an identifier — into search terms:
 * words are split on anything that is not a letter or digit (`/ . _ -` included) and on camelCase
 * boundaries, lowercased, stop words and bare numbers dropped, and stemmed (Porter). A compound
 * identifier is also kept whole (`AskUserQuestion` → `askuserquest` besides its parts), so that
 * a tool or function name matches itself more strongly than its words do apart; file
 * extensions and tool names are ordinary words and are kept (`retry.py` → `retri`, `py`).
 * Repeats are kept: term counts matter to the score.
 *
 * @example
 * tokenizeText("embedding-call-timeouts in semantic_memory/retry.py");
 * // ["embed", "call", "timeout", "semant", "memori", "retri", "py"]
 */
export function tokenizeText(text: string): string[] {
  const terms: string[] = [];
  for (const word of text.split(NOT_WORD)) {
    if (word === "") continue;
    let found = WORD_TERMS.get(word);
    if (found === undefined) {
      found = wordTerms(word);
      // A bank's words are a few thousand, said again and again: each is split and stemmed once.
      if (WORD_TERMS.size >= WORD_TERMS_MAX) WORD_TERMS.clear();
      WORD_TERMS.set(word, found);
    }
    for (const term of found) terms.push(term);
  }
  return terms;
}

const WORD_TERMS = new Map<string, readonly string[]>();
const WORD_TERMS_MAX = 200_000;
const PLAIN_WORD = /^[a-z]+$/;

function wordTerms(word: string): readonly string[] {
  // Most words are plain lowercase: no identifier to split.
  if (PLAIN_WORD.test(word)) return word.length < 2 || STOP_WORDS.has(word) ? [] : [stemmer(word)];
  const terms: string[] = [];
  const parts = word.split(CAMEL_BOUNDARY);
  if (parts.length > 1) {
    // The whole identifier as one term, for a query naming it exactly.
    const whole = word.toLowerCase();
    if (!DIGITS.test(whole)) terms.push(stemmer(whole));
  }
  for (const part of parts) {
    const lower = part.toLowerCase();
    if (lower.length < 2 || DIGITS.test(lower) || STOP_WORDS.has(lower)) continue;
    terms.push(stemmer(lower));
  }
  return terms;
}
