/**
 * `value` as a whole number of `minimum` or more, or null: what `--limit`, `--max-chars` and
 * `--port` accept (digits with an optional minus, spaces around allowed).
 *
 * @example
 * wholeNumber(" 20", -1); // 20
 * wholeNumber("2.5", -1); // null
 */
export function wholeNumber(value: string, minimum: number): number | null {
  const number = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(number) && number >= minimum ? number : null;
}
