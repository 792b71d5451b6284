/**
 * Calendar dates as `YYYY-MM-DD` strings, with pure integer arithmetic on the proleptic Gregorian
 * calendar (no `Date`, so no time zone or DST can shift a day, and years before 100 stay correct).
 */

/** A calendar date written `YYYY-MM-DD`. */
export type IsoDate = string;

/** A date split into numbers: month 1..12, day 1..31. */
export interface CivilDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Number of days of `month` (1..12) in `year`, leap years included. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when `year` has a 29 February. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** True for an existing calendar date written `YYYY-MM-DD` ("2026-02-29" is false). */
export function isIsoDate(value: string): boolean {
  return parse(value) !== null;
}

/** Splits a `YYYY-MM-DD` date into numbers; throws a RangeError for anything else. */
export function parseIsoDate(value: IsoDate): CivilDate {
  const date = parse(value);
  if (!date)
    throw new RangeError(`"${value}" is not a calendar date; write it as YYYY-MM-DD, e.g. 2026-01-15.`);
  return date;
}

/** Writes year, month (1..12) and day as `YYYY-MM-DD`. */
export function formatIsoDate(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The date `days` calendar days after `date` (before it when negative). */
export function addDays(date: IsoDate, days: number): IsoDate {
  if (!Number.isInteger(days)) throw new RangeError(`Days to add must be a whole number, got ${days}.`);
  const { year, month, day } = civilFromDays(daysFromCivil(parseIsoDate(date)) + days);
  return formatIsoDate(year, month, day);
}

/** Calendar days from `from` to `to`: positive when `to` is later, e.g. 2026-01-15 -> 2026-02-15 is 31. */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return daysFromCivil(parseIsoDate(to)) - daysFromCivil(parseIsoDate(from));
}

function parse(value: string): CivilDate | null {
  const match = ISO_DATE_PATTERN.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

// Days since 1970-01-01 and back: H. Hinnant's civil-date algorithms, exact on integers.
function daysFromCivil({ year, month, day }: CivilDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}
