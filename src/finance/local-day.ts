import type { IsoDate } from './calendar.js';

/**
 * The time zone whose days every date of the API is (`due_date`, `payable_until`,
 * `first_due_date`, the calendar, overdue counts, offer validity in days). Timestamps stay UTC
 * instants; only the day an instant falls on is read here. The one place the zone is named.
 */
export const BRAZIL_TIME_ZONE = 'America/Sao_Paulo';

// Made on first use: building a formatter for a named zone loads ICU's zone data, ~25 ms of CPU
// that a server start (or a CLI command) need not pay before its first date.
let parts: Intl.DateTimeFormat | undefined;
const newParts = () =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: BRAZIL_TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

// Intl takes tens of microseconds per call; offsets are remembered per hour (bounded: a clock
// sweeping years of hours clears the table now and then).
const OFFSETS = new Map<number, number>();
const OFFSETS_KEPT = 100_000;

/** Local time minus UTC at an instant, in ms (-3 h in São Paulo since 2019). */
export function zoneOffsetMs(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  const known = OFFSETS.get(hour);
  if (known !== undefined) return known;
  const part: Record<string, number> = {};
  parts ??= newParts();
  for (const { type, value } of parts.formatToParts(new Date(hour * 3_600_000))) {
    if (type !== 'literal') part[type] = Number(value);
  }
  const wall = Date.UTC(
    part.year ?? 1970,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    part.hour ?? 0,
    part.minute ?? 0,
    part.second ?? 0,
  );
  const offset = wall - hour * 3_600_000;
  if (OFFSETS.size >= OFFSETS_KEPT) OFFSETS.clear();
  OFFSETS.set(hour, offset);
  return offset;
}

const DATES = new Map<number, IsoDate>();

/** The São Paulo date an instant falls on. */
export function localDate(ms: number): IsoDate {
  const hour = Math.floor(ms / 3_600_000);
  const known = DATES.get(hour);
  if (known !== undefined) return known;
  const offset = zoneOffsetMs(ms);
  const date = new Date(ms + offset).toISOString().slice(0, 10);
  // A whole-hour offset keeps the whole UTC hour on one local date (every offset since 1914).
  if (offset % 3_600_000 === 0) {
    if (DATES.size >= OFFSETS_KEPT) DATES.clear();
    DATES.set(hour, date);
  }
  return date;
}

/** The first instant of a São Paulo date (00:00 local, or the first hour after a DST gap). */
export function startOfLocalDayMs(date: IsoDate): number {
  const wallMidnight = Date.parse(`${date}T00:00:00.000Z`);
  let start = wallMidnight - zoneOffsetMs(wallMidnight);
  start = wallMidnight - zoneOffsetMs(start);
  // Midnight skipped by a daylight-saving start (Brazil until 2019): the day began an hour later.
  return localDate(start) < date ? start + 3_600_000 : start;
}

/** The same local time of day `days` São Paulo days later. */
export function addLocalDays(ms: number, days: number): number {
  const wall = ms + zoneOffsetMs(ms) + days * 86_400_000;
  return wall - zoneOffsetMs(wall - zoneOffsetMs(ms));
}
