import fc from "fast-check";
import { makeEntry } from "./make-entry.js";

/** Words banks of relevance's tests are written in: stems that merge, a camel-cased name, a version, a stop word, a non-ASCII word, a name of Object.prototype. */
export const INDEX_WORDS = ["retry", "embedding", "timeout", "hook", "session", "cache", "RetryPolicy", "v2", "the", "löschen", "fast", "constructor"];

const text = fc.array(fc.constantFrom(...INDEX_WORDS), { maxLength: 12 }).map((words) => words.join(" "));

/** An entry of up to twelve of those words per field, its metadata an `Instead:` line and a Source line. */
export const indexEntryArbitrary = fc
  .record({ name: text, description: text, metadata: text })
  .map(({ name, description, metadata }) => makeEntry({ name, description, metadataText: metadata === "" ? "" : `- Instead: ${metadata}\n- Source: Feature #7` }));

/** Field weights and length normalisation, zero weights among them. */
export const indexWeightsArbitrary = fc.record({
  name: fc.constantFrom(0, 0.5, 1.5, 3),
  description: fc.constantFrom(0, 1, 2),
  metadata: fc.constantFrom(0, 0.6, 1),
  lengthNormalization: fc.constantFrom(0, 0.5, 0.75, 1),
});
