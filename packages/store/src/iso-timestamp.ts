/**
 * A time as the memory files write it: ISO-8601 UTC to the second, as the original tools did.
 *
 * @example
 * isoTimestamp(new Date("2026-11-22T10:11:12.345Z")); // "2026-11-22T10:11:12Z"
 */
export function isoTimestamp(date: Date): string {
  const year = date.getUTCFullYear();
  // Years of other than four digits (and invalid dates) are written as toISOString writes them.
  if (!(year >= 1000 && year <= 9999)) return date.toISOString().replace(/\.\d{3}Z$/, "Z");
  // Read field by field: toISOString loads the local time zone first, which costs a session
  // start a third of a millisecond for nothing.
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}Z`;
}

function two(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}
