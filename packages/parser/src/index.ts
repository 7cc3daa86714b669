export { CATEGORIES } from "./entry.js";
export type { Category, Confidence, Entry, Scope } from "./entry.js";
export { hashContent, normalizeContent } from "./content-hash.js";
export { parseKnowledgeBank } from "./parse-knowledge-bank.js";
export type { ParseOptions, ParseResult, ParseWarning } from "./parse-knowledge-bank.js";
export { serializeEntry } from "./serialize-entry.js";
