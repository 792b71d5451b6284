import { addDays, daysBetween, daysInMonth, formatIsoDate, type IsoDate, parseIsoDate } from './calendar.js';

/** Days from the simulation date to the first due date when the offer sets no due-date rule. */
export const DEFAULT_FIRST_DUE_DAYS = 30;

/** The first due date when the offer sets no rule: the simulation date plus 30 days. */
export function defaultFirstDueDate(simulationDate: IsoDate): IsoDate {
  return addDays(simulationDate, DEFAULT_FIRST_DUE_DAYS);
}

/**
 * The `count` monthly due dates starting at `firstDueDate`, each on the first date's day of the
 * month, clamped to the month's last day. The anchor never drifts: from 2026-01-31 come
 * 2026-02-28, 2026-03-31, 2026-04-30.
 */
export function dueDateSchedule(firstDueDate: IsoDate, count: number): IsoDate[] {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`Installment count must be a whole number of at least 1, got ${count}.`);
  }
  const first = parseIsoDate(firstDueDate);
  const dates: IsoDate[] = [];
  for (let k = 0; k < count; k += 1) {
    // Count months from the first date (not from the previous one) so clamping never accumulates.
    const monthIndex = first.month - 1 + k;
    const year = first.year + Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    dates.push(formatIsoDate(year, month, Math.min(first.day, daysInMonth(year, month))));
  }
  return dates;
}

/** Calendar days from `fromDate` (the simulation or disbursement date) to each due date: the d_k of IOF and CET. */
export function dayCounts(fromDate: IsoDate, dueDates: readonly IsoDate[]): number[] {
  return dueDates.map((dueDate) => daysBetween(fromDate, dueDate));
}
