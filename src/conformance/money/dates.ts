// Calendar dates as the spec's `date (YYYY-MM-DD)` strings. Brazilian credit counts days in
// São Paulo: a simulation made at 01:00 UTC on the 2nd is made on the 1st there.

const DAY_MS = 86_400_000;
const SAO_PAULO = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The São Paulo calendar date of an instant. */
export function saoPauloDate(instant: string | Date): string {
  return SAO_PAULO.format(typeof instant === 'string' ? new Date(instant) : instant);
}

function toUtc(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** `date` moved by `days` calendar days. */
export function plusDays(date: string, days: number): string {
  return new Date(toUtc(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

/** The same day of the month `months` later, clamped to that month's last day (31 Jan + 1 → 28 Feb). */
export function plusMonths(date: string, months: number, day = Number(date.slice(8, 10))): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7)) - 1 + months;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(day, last))).toISOString().slice(0, 10);
}

/**
 * The due dates of `n` monthly installments: the first, then the first's day of the month in each
 * following month, clamped to the month's end (the contractual dates of a Price-table loan).
 */
export function dueDates(first: string, n: number): string[] {
  const day = Number(first.slice(8, 10));
  return Array.from({ length: n }, (_, k) => (k === 0 ? first : plusMonths(first, k, day)));
}

/** Day of the week, 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(toUtc(date)).getUTCDay();
}
