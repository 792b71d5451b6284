import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { addDays, type IsoDate, parseIsoDate } from './calendar.js';

/** Why a date is not a banking business day. */
export type NonBusinessKind = 'saturday' | 'sunday' | 'holiday';

export interface NonBusinessDay {
  date: IsoDate;
  kind: NonBusinessKind;
  /** The holiday's name (Portuguese, as `date-holidays` gives it); null for a plain weekend. */
  name: string | null;
}

/**
 * The Brazilian banking calendar (ANBIMA's national list: national holidays plus Carnival Monday
 * and Tuesday, Good Friday and Corpus Christi), optionally with one state's holidays. Years are
 * computed once, on first use, with `date-holidays` (country BR, types `public` and `bank`).
 */
export interface BankingCalendar {
  /** The state whose holidays are added (`--holidays-region`), or null for the national list. */
  readonly region: string | null;
  isBusinessDay(date: IsoDate): boolean;
  /** The date itself when it is a business day, else the next one (Lei 7.089/1983: payable then without charges). */
  payableUntil(date: IsoDate): IsoDate;
  /** The first weekday holiday on or after `date` (magic profiles put a due date on one). */
  nextWeekdayHoliday(date: IsoDate): IsoDate;
  /** Every non-business day from `from` to `to`, both included, in date order. */
  nonBusinessDays(from: IsoDate, to: IsoDate): NonBusinessDay[];
}

/**
 * Brazilian states `--holidays-region` accepts: the 26 states and the Federal District, the states
 * `date-holidays` knows for BR (business-days.test.ts checks that the two lists agree).
 */
export const BRAZILIAN_STATES: readonly string[] =
  'AC AL AM AP BA CE DF ES GO MA MG MS MT PA PB PE PI PR RJ RN RO RR RS SC SE SP TO'.split(' ');

/**
 * `date-holidays`, loaded on the first holiday looked up: with every country's rules and the lunar
 * calendars they need it cost more CPU than the rest of the server's start (and every CLI command
 * paid for it). Its CommonJS build is a few files where its ES module build is ~100.
 */
let holidaysClass: typeof Holidays | undefined;
function loadHolidays(): typeof Holidays {
  holidaysClass ??= createRequire(import.meta.url)('date-holidays') as typeof Holidays;
  return holidaysClass;
}

// Holiday types that close banks: "optional" (e.g. Ash Wednesday until 14:00) and "observance"
// (Mother's Day) do not.
const BANK_CLOSED = new Set(['public', 'bank']);

export function bankingCalendar(region?: string | null): BankingCalendar {
  const state = region ? region.toUpperCase() : null;
  if (state !== null && !BRAZILIAN_STATES.includes(state)) {
    throw new RangeError(`Unknown Brazilian state "${region}". Use one of: ${BRAZILIAN_STATES.join(', ')}.`);
  }
  // The national list is always read on its own too: a state's list in date-holidays can miss a
  // national holiday (São Paulo's lacks Consciência Negra, national since Lei 14.759/2023).
  let sources: Holidays[] | undefined;
  const years = new Map<number, Map<IsoDate, string>>();
  const holidaysOf = (year: number): Map<IsoDate, string> => {
    let found = years.get(year);
    if (!found) {
      found = new Map();
      const Library = loadHolidays();
      sources ??= [new Library('BR'), ...(state ? [new Library('BR', state)] : [])];
      for (const source of sources) {
        for (const holiday of source.getHolidays(year)) {
          const date = holiday.date.slice(0, 10);
          if (BANK_CLOSED.has(holiday.type) && !found.has(date)) found.set(date, holiday.name);
        }
      }
      years.set(year, found);
    }
    return found;
  };
  const classify = (date: IsoDate): NonBusinessDay | null => {
    const weekday = weekdayOf(date);
    const name = holidaysOf(parseIsoDate(date).year).get(date) ?? null;
    if (name !== null) return { date, kind: 'holiday', name };
    if (weekday === 6) return { date, kind: 'saturday', name: null };
    if (weekday === 0) return { date, kind: 'sunday', name: null };
    return null;
  };
  return {
    region: state,
    isBusinessDay: (date) => classify(date) === null,
    payableUntil: (date) => {
      let day = date;
      while (classify(day) !== null) day = addDays(day, 1);
      return day;
    },
    nextWeekdayHoliday: (date) => {
      let day = date;
      while (classify(day)?.kind !== 'holiday' || weekdayOf(day) === 0 || weekdayOf(day) === 6)
        day = addDays(day, 1);
      return day;
    },
    nonBusinessDays: (from, to) => {
      const days: NonBusinessDay[] = [];
      for (let day = from; day <= to; day = addDays(day, 1)) {
        const found = classify(day);
        if (found) days.push(found);
      }
      return days;
    },
  };
}

/** 0 = Sunday .. 6 = Saturday. */
export function weekdayOf(date: IsoDate): number {
  // 1970-01-01 was a Thursday (4).
  const days = Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  return (((days + 4) % 7) + 7) % 7;
}
