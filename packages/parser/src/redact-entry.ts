import type { Entry } from "./entry.js";
import { findSecrets, redactSecrets } from "./redact-secrets.js";

/**
 * The entry with every secret in every field replaced by `[REDACTED]` — its header line and
 * name, description, metadata text and each metadata value, tags and date — and the kinds of
 * what was found, in order. The content hash is kept: it names the entry as it is stored. An
 * entry without a secret is returned as it is (the same object).
 *
 * @example
 * const { entry: clean, kinds } = redactEntry(entry); // header "### Rotate ghp_…" → "### Rotate [REDACTED]"
 * kinds; // ["github-token"]
 */
export function redactEntry<T extends Entry>(entry: T): { entry: T; kinds: string[] } {
  const kinds: string[] = [];
  const redact = (text: string) => {
    const result = redactSecrets(text);
    for (const finding of result.findings) kinds.push(finding.kind);
    return result.text;
  };
  if (!hasSecret(entry)) return { entry, kinds };
  const clean: T = {
    ...entry,
    headerLine: redact(entry.headerLine),
    description: redact(entry.description),
    metadataText: redact(entry.metadataText),
  };
  // The name, the metadata values and the tags repeat text of the header and metadata: redacted
  // too, their findings not counted twice.
  const quiet = (text: string) => redactSecrets(text).text;
  clean.name = quiet(entry.name);
  clean.metadata = Object.fromEntries(Object.entries(entry.metadata).map(([key, value]) => [quiet(key), quiet(value)]));
  clean.tags = entry.tags.map(quiet);
  clean.lastObserved = entry.lastObserved === null ? null : quiet(entry.lastObserved);
  return { entry: clean, kinds };
}

function hasSecret(entry: Entry): boolean {
  return findSecrets(entry.headerLine).length > 0 || findSecrets(entry.description).length > 0 || findSecrets(entry.metadataText).length > 0 || findSecrets(entry.name).length > 0;
}
