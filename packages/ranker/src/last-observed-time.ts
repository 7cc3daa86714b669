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
