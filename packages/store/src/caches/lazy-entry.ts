import type { Category, Confidence, Entry, Scope } from "@iflow-memory/parser";

// How the caches of lazily read entries write an entry's category, confidence and scope: one letter each.
export const CATEGORY_LETTERS: Record<string, Category> = { a: "anti-patterns", h: "heuristics", p: "patterns" };
export const CONFIDENCE_LETTERS: Record<string, Confidence> = { h: "high", m: "medium", l: "low" };
export const SCOPE_LETTERS: Record<string, Scope> = { l: "local", g: "global" };

/**
 * An entry whose text is parsed from a cache's line when first asked for (`whole`, once): a
 * subclass holds as its own fields what every ranking reads of every entry, so that ranking
 * thousands of them parses only the few that are shown. JSON, and `plainEntry` (what a spread or
 * a structured clone must be given), see the entry whole.
 */
export abstract class LazyEntry {
  /** The entry whole, parsed from its line at the first call. */
  protected abstract whole(): Entry;

  get name(): string {
    return this.whole().name;
  }
  get headerLine(): string {
    return this.whole().headerLine;
  }
  get description(): string {
    return this.whole().description;
  }
  get metadataText(): string {
    return this.whole().metadataText;
  }
  get metadata(): Record<string, string> {
    return this.whole().metadata;
  }
  get origin(): Entry["origin"] {
    return this.whole().origin;
  }

  /** All of it as a plain entry (what JSON and `plainEntry` see). */
  toJSON(): Entry {
    return this.whole();
  }
}
