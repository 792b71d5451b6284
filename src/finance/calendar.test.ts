import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, daysInMonth, isIsoDate, isLeapYear, parseIsoDate } from './calendar.js';

describe('calendar', () => {
  it('knows leap years', () => {
    expect([2024, 2028, 2000, 2400].map(isLeapYear)).toEqual([true, true, true, true]);
    expect([2025, 2026, 1900, 2100].map(isLeapYear)).toEqual([false, false, false, false]);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2026, 2)).toBe(28);
    expect(daysInMonth(2026, 4)).toBe(30);
    expect(daysInMonth(2026, 12)).toBe(31);
  });

  it('validates YYYY-MM-DD', () => {
    expect(isIsoDate('2026-01-15')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-1-15',
      '2026-01-15T00:00:00Z',
      '15/01/2026',
      '',
    ]) {
      expect(isIsoDate(bad)).toBe(false);
    }
    expect(() => parseIsoDate('2026-02-30')).toThrow(/YYYY-MM-DD/);
  });

  it('adds days across months, years and 29 February', () => {
    expect(addDays('2026-01-15', 30)).toBe('2026-02-14');
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('counts calendar days', () => {
    expect(daysBetween('2026-01-15', '2026-02-15')).toBe(31);
    expect(daysBetween('2026-01-15', '2027-01-15')).toBe(365);
    expect(daysBetween('2028-01-15', '2029-01-15')).toBe(366);
    expect(daysBetween('2026-02-15', '2026-01-15')).toBe(-31);
  });

  it('agrees with Date.UTC arithmetic on random dates', () => {
    const day = 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: -40_000, max: 40_000 }),
        fc.integer({ min: -3_000, max: 3_000 }),
        (start, offset) => {
          const from = new Date(start * day).toISOString().slice(0, 10);
          const expected = new Date((start + offset) * day).toISOString().slice(0, 10);
          expect(addDays(from, offset)).toBe(expected);
          expect(daysBetween(from, expected)).toBe(offset);
        },
      ),
      { numRuns: 200 },
    );
  });
});
