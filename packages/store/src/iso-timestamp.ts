/**
 * A time as the memory files write it: ISO-8601 UTC to the second, as the original tools did.
 *
 * @example
 * isoTimestamp(new Date("2026-11-22T10:11:12.345Z")); // "2026-11-22T10:11:12Z"
 */
export function isoTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
