// Brazilian banking business days, for the rule of Lei 7.089/1983: an obligation that falls due on
// a day without banking hours may be paid on the next business day without charges. The national
// banking calendar: Saturdays, Sundays, national holidays and the bank holidays (Carnival Monday
// and Tuesday, Corpus Christi), from the `date-holidays` package (types `public` and `bank`).
import { createRequire } from 'node:module';
import type HolidaysType from 'date-holidays';
import { plusDays, weekday } from './dates.js';

let holidays: HolidaysType | undefined;
const closedByYear = new Map<number, Set<string>>();

function closedDays(year: number): Set<string> {
  let days = closedByYear.get(year);
  if (days) return days;
  // Loaded on first use: the package is large and only the credit checks need it.
  const Holidays = createRequire(import.meta.url)('date-holidays') as typeof HolidaysType;
  holidays ??= new Holidays('BR');
  days = new Set(
    (holidays.getHolidays(year) || [])
      .filter((holiday) => holiday.type === 'public' || holiday.type === 'bank')
      .map((holiday) => holiday.date.slice(0, 10)),
  );
  closedByYear.set(year, days);
  return days;
}

export function isBusinessDay(date: string): boolean {
  const day = weekday(date);
  if (day === 0 || day === 6) return false;
  return !closedDays(Number(date.slice(0, 4))).has(date);
}

/** The date itself when banks open on it, else the next day they do. */
export function nextBusinessDay(date: string): string {
  let day = date;
  while (!isBusinessDay(day)) day = plusDays(day, 1);
  return day;
}
