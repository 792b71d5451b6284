import Holidays from 'date-holidays';
import { describe, expect, it } from 'vitest';
import { BRAZILIAN_STATES, bankingCalendar, weekdayOf } from './business-days.js';

// Dates stated by hand (Easter-based ones from the Easter dates of each year), not by date-holidays,
// which is the code under test here.
const national = bankingCalendar();

describe('the Brazilian banking calendar', () => {
  it('accepts as --holidays-region exactly the states date-holidays has rules for', () => {
    expect(BRAZILIAN_STATES).toEqual(Object.keys(new Holidays().getStates('BR') ?? {}).sort());
    expect(BRAZILIAN_STATES).toHaveLength(27);
  });

  it.each([
    // Carnival Monday and Tuesday
    ['2026-02-16'],
    ['2026-02-17'],
    ['2027-02-08'],
    ['2027-02-09'],
    ['2028-02-28'],
    ['2028-02-29'],
    ['2029-02-12'],
    ['2029-02-13'],
    ['2030-03-04'],
    ['2030-03-05'],
    // Good Friday
    ['2026-04-03'],
    ['2027-03-26'],
    ['2028-04-14'],
    ['2029-03-30'],
    ['2030-04-19'],
    // Corpus Christi
    ['2026-06-04'],
    ['2027-05-27'],
    ['2028-06-15'],
    ['2029-05-31'],
    ['2030-06-20'],
    // Tiradentes, Christmas, New Year, Consciência Negra
    ['2026-04-21'],
    ['2028-04-21'],
    ['2026-12-25'],
    ['2027-01-01'],
    ['2030-01-01'],
    ['2027-11-20'],
  ])('%s is a banking holiday', (date) => {
    expect(national.isBusinessDay(date)).toBe(false);
    expect(national.nonBusinessDays(date, date)).toEqual([
      expect.objectContaining({ date, kind: 'holiday' }),
    ]);
  });

  it.each([
    ['2027-02-10', 'Ash Wednesday: banks open at noon'],
    ['2026-12-24', 'Christmas Eve'],
    ['2026-12-31', "New Year's Eve"],
    ['2027-06-12', 'Dia dos Namorados (an observance, on a Saturday: not a holiday, still a weekend)'],
    ['2026-03-02', 'a plain Monday'],
  ])('%s is not a holiday (%s)', (date) => {
    const kinds = national.nonBusinessDays(date, date).map((day) => day.kind);
    expect(kinds).not.toContain('holiday');
  });

  it.each([
    ['2026-05-02', '2026-05-04', 'Saturday -> Monday'],
    ['2026-05-03', '2026-05-04', 'Sunday -> Monday'],
    ['2026-05-01', '2026-05-04', 'Labour Day (Friday) -> Monday'],
    ['2027-02-08', '2027-02-10', 'Carnival Monday -> Ash Wednesday'],
    ['2027-02-06', '2027-02-10', 'Carnival Saturday -> Ash Wednesday'],
    ['2027-03-26', '2027-03-29', 'Good Friday -> Monday'],
    ['2029-04-21', '2029-04-23', 'Tiradentes on a Saturday -> Monday'],
    ['2030-04-21', '2030-04-22', 'Tiradentes on Easter Sunday -> Monday'],
    ['2027-05-27', '2027-05-28', 'Corpus Christi (Thursday) -> Friday'],
    ['2026-12-25', '2026-12-28', 'Christmas (Friday) -> Monday'],
    ['2027-12-25', '2027-12-27', 'Christmas (Saturday) -> Monday'],
    ['2027-01-01', '2027-01-04', 'New Year (Friday) -> Monday'],
    ['2028-01-01', '2028-01-03', 'New Year (Saturday) -> Monday'],
    ['2026-03-02', '2026-03-02', 'a business day is its own payable date'],
  ])('%s is payable until %s (%s)', (due, payable) => {
    expect(national.payableUntil(due)).toBe(payable);
  });

  it('lists weekends and holidays of a range in order, with names', () => {
    expect(national.nonBusinessDays('2027-02-05', '2027-02-10')).toEqual([
      { date: '2027-02-06', kind: 'saturday', name: null },
      { date: '2027-02-07', kind: 'sunday', name: null },
      { date: '2027-02-08', kind: 'holiday', name: 'Carnaval' },
      { date: '2027-02-09', kind: 'holiday', name: 'Carnaval' },
    ]);
  });

  it('adds a state holiday with a region and keeps the national ones', () => {
    const sp = bankingCalendar('sp');
    expect(sp.region).toBe('SP');
    expect(sp.isBusinessDay('2027-07-09')).toBe(false); // Revolução Constitucionalista
    expect(national.isBusinessDay('2027-07-09')).toBe(true);
    expect(sp.isBusinessDay('2026-11-20')).toBe(false); // Consciência Negra (national)
    expect(() => bankingCalendar('XX')).toThrow(/Unknown Brazilian state "XX"/);
  });

  it('finds the next holiday that falls on a weekday', () => {
    expect(national.nextWeekdayHoliday('2027-01-02')).toBe('2027-02-08');
    expect(national.nextWeekdayHoliday('2029-04-01')).toBe('2029-05-01');
  });

  it('knows the weekday of a date', () => {
    expect(weekdayOf('1970-01-01')).toBe(4);
    expect(weekdayOf('2026-03-02')).toBe(1);
    expect(weekdayOf('1969-12-28')).toBe(0);
  });
});
