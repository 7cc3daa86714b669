import { stemmer } from "stemmer";
import { STOP_WORDS } from "./stop-words.js";

// Made at first use, for text that is not all ASCII: constructing a Unicode property class costs
// a hook some 0.4 ms, and most hooks tokenize nothing, or ASCII text only.
let unicode: typeof ASCII | undefined;
const UNICODE = (): typeof ASCII =>
  (unicode ??= {
    // A word is a run of letters and digits; everything else (space, punctuation, `/ . _ - #`)
    // separates words, so a path or an identifier falls apart into its parts.
    notWord: /[^\p{L}\p{N}]+/u,
    // Where camelCase and PascalCase words meet: "askUser" → "ask" "User", "HTTPServer" → "HTTP" "Server".
    camelBoundary: /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u,
    digits: /^\p{N}+$/u,
  });
// The same for text that is all ASCII, where \p{L} is [A-Za-z], \p{Ll} [a-z], \p{Lu} [A-Z] and
// \p{N} [0-9]: the same terms, without compiling Unicode property classes (some 2 ms at a hook's
// first text, most often a branch name, file paths or a prompt in ASCII).
const ASCII = {
  notWord: /[^A-Za-z0-9]+/,
  camelBoundary: /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/,
  digits: /^[0-9]+$/,
};
const ALL_ASCII = /^[\x00-\x7f]*$/;

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
  const words = text.split(ALL_ASCII.test(text) ? ASCII.notWord : UNICODE().notWord);
  // Indexed loops, not for…of, which makes an iterator for every text and every word in a process
  // this young (run by the interpreter). With the capitalized words below, a new process tokenized
  // the real bank's entries in 30.8 ms instead of 32.8 (40 runs each).
  for (let at = 0; at < words.length; at++) {
    const word = words[at]!;
    if (word === "") continue;
    const found = termsOfWord(word);
    for (let term = 0; term < found.length; term++) terms.push(found[term]!);
  }
  return terms;
}

function termsOfWord(word: string): readonly string[] {
  let found = WORD_TERMS.get(word);
  if (found === undefined) {
    found = wordTerms(word);
    // A bank's words are a few thousand, said again and again: each is split and stemmed once.
    if (WORD_TERMS.size >= WORD_TERMS_MAX) WORD_TERMS.clear();
    WORD_TERMS.set(word, found);
  }
  return found;
}

const WORD_TERMS = new Map<string, readonly string[]>();
const WORD_TERMS_MAX = 200_000;
const PLAIN_WORD = /^[a-z]+$/;
const CAPITALIZED = /^[A-Z][a-z]+$/;

function wordTerms(word: string): readonly string[] {
  // Most words are plain lowercase: no identifier to split.
  if (PLAIN_WORD.test(word)) return word.length < 2 || STOP_WORDS.has(word) ? [] : [stemmer(word)];
  // A capitalized word (a sentence's first, a title's) has no boundary to split at: its terms are
  // its lowercase's, found or made once for both (a quarter of a bank's words, most said in both).
  if (CAPITALIZED.test(word)) return termsOfWord(word.toLowerCase());
  const { camelBoundary, digits } = ALL_ASCII.test(word) ? ASCII : UNICODE();
  const terms: string[] = [];
  const parts = word.split(camelBoundary);
  if (parts.length > 1) {
    // The whole identifier as one term, for a query naming it exactly.
    const whole = word.toLowerCase();
    if (!digits.test(whole)) terms.push(stemmer(whole));
  }
  for (const part of parts) {
    const lower = part.toLowerCase();
    if (lower.length < 2 || digits.test(lower) || STOP_WORDS.has(lower)) continue;
    terms.push(stemmer(lower));
  }
  return terms;
}
