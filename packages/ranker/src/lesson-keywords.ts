// ArcheFlow splits on ASCII punctuation and spaces only: letters beyond ASCII stay inside tokens.
const SEPARATORS = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/;

/**
 * The keywords ArcheFlow matches lessons by: lowercase, split on every non-alphanumeric ASCII
 * character, tokens of three characters or more, each once, in order of appearance.
 *
 * @example
 * lessonKeywords("Missing input validation on user endpoint (user API)");
 * // ["missing", "input", "validation", "user", "endpoint", "api"]
 */
export function lessonKeywords(text: string): string[] {
  return [...new Set(text.toLowerCase().split(SEPARATORS).filter((token) => token.length >= 3))];
}

/**
 * ⌊100 × |common| / |subject|⌋: how much of `subject` the other keywords cover; 0 for no subject.
 *
 * @example
 * keywordOverlap(["missing", "validation"], ["validation", "rules"]); // 50
 */
export function keywordOverlap(subject: readonly string[], other: readonly string[]): number {
  if (subject.length === 0) return 0;
  const others = new Set(other);
  return Math.floor((100 * subject.filter((token) => others.has(token)).length) / subject.length);
}

/**
 * The tags of a new lesson: its first five tokens of four characters or more, in order, repeats kept.
 *
 * @example
 * lessonTags("Missing input validation on user endpoint"); // ["missing", "input", "validation", "user", "endpoint"]
 */
export function lessonTags(text: string): string[] {
  return text.toLowerCase().split(SEPARATORS).filter((token) => token.length >= 4).slice(0, 5);
}
