const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * The time of a "Last observed" value when it is an ISO-8601 date or date-time (a date alone, or
 * one without an offset, is read as UTC), else null ("Feature #33" is not a time).
 *
 * @example
 * lastObservedTime("2026-10-05T04:00:00Z"); // 1791172800000
 * lastObservedTime("Feature #33");          // null
 */
export function lastObservedTime(value: string | null): number | null {
  if (value === null) return null;
  const compact = compactUtcTime(value);
  if (compact !== undefined) return compact;
  const match = ISO_8601.exec(value.trim());
  if (match === null) return null;
  const [, year, month, day, hour = "00", minute = "00", second = "00", zone] = match;
  const fast = utcTime(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second), zone);
  if (fast !== undefined) return fast;
  let offset = zone === undefined || zone === "Z" ? "Z" : zone;
  if (/^[+-]\d{2}$/.test(offset)) offset += ":00";
  else if (/^[+-]\d{4}$/.test(offset)) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
  const time = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  if (Number.isNaN(time)) return null;
  // Date.parse rolls 2026-02-30 over into March; a date that does not exist is not a time.
  const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return check.getUTCDate() === Number(day) && check.getUTCMonth() === Number(month) - 1 ? time : null;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// The common case (a valid UTC date-time) without building and re-parsing a string; undefined
// sends anything unusual (offsets, 24:00, leap seconds, impossible dates, years below 100, which
// Date.UTC would read as 19xx) to the general path.
function utcTime(year: number, month: number, day: number, hour: number, minute: number, second: number, zone: string | undefined): number | undefined {
  if (zone !== undefined && zone !== "Z") return undefined;
  if (year < 100 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

// "2026-10-05T04:00:00Z", the form every tool writes, read digit by digit: sorting tens of
// thousands of entries reads it once per entry. Anything else goes to the regular expression.
function compactUtcTime(value: string): number | undefined {
  if (value.length !== 20 || value.charCodeAt(19) !== 0x5a /* Z */) return undefined;
  if (value[4] !== "-" || value[7] !== "-" || value[10] !== "T" || value[13] !== ":" || value[16] !== ":") return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  return utcTime(year, month, day, hour, minute, second, "Z");
}

/** The number written with `count` ASCII digits at `start`, or -1. */
function digitsAt(value: string, start: number, count: number): number {
  let number = 0;
  for (let index = start; index < start + count; index++) {
    const digit = value.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}
