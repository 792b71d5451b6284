import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, isIsoDate } from './calendar.js';
import { dayCounts, defaultFirstDueDate, dueDateSchedule } from './due-dates.js';

describe('dueDateSchedule', () => {
  it('keeps the day of the month', () => {
    expect(dueDateSchedule('2026-02-15', 12)).toEqual([
      '2026-02-15',
      '2026-03-15',
      '2026-04-15',
      '2026-05-15',
      '2026-06-15',
      '2026-07-15',
      '2026-08-15',
      '2026-09-15',
      '2026-10-15',
      '2026-11-15',
      '2026-12-15',
      '2027-01-15',
    ]);
  });

  it('clamps to the last day of short months without drifting', () => {
    expect(dueDateSchedule('2026-01-31', 5)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
    expect(dueDateSchedule('2027-12-31', 3)).toEqual(['2027-12-31', '2028-01-31', '2028-02-29']);
    expect(dueDateSchedule('2028-01-30', 3)).toEqual(['2028-01-30', '2028-02-29', '2028-03-30']);
    expect(dueDateSchedule('2026-01-29', 3)).toEqual(['2026-01-29', '2026-02-28', '2026-03-29']);
  });

  it('anchors on the first date, whose own day may already be a month end', () => {
    // 28 February is the anchor here, so March keeps the 28th.
    expect(dueDateSchedule('2026-02-28', 2)).toEqual(['2026-02-28', '2026-03-28']);
  });

  it('refuses a count below 1', () => {
    expect(() => dueDateSchedule('2026-01-31', 0)).toThrow(/at least 1/);
  });

  it('gives valid, increasing dates on the anchor day or the month end', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2100 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 60 }),
        (year, month, rawDay, count) => {
          const day = Math.min(rawDay, daysInMonth(year, month));
          const first = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const dates = dueDateSchedule(first, count);
          expect(dates).toHaveLength(count);
          dates.forEach((date, k) => {
            expect(isIsoDate(date)).toBe(true);
            if (k > 0) expect(date > (dates[k - 1] ?? '')).toBe(true);
            const [y, m, d] = date.split('-').map(Number) as [number, number, number];
            expect(d).toBe(Math.min(day, daysInMonth(y, m)));
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('defaultFirstDueDate and dayCounts', () => {
  it('puts the first due date 30 days after the simulation', () => {
    expect(defaultFirstDueDate('2026-01-15')).toBe('2026-02-14');
    expect(defaultFirstDueDate('2026-01-31')).toBe('2026-03-02');
    expect(defaultFirstDueDate('2028-01-31')).toBe('2028-03-01');
  });

  it('counts the reference case days 31, 59, 90 ... 365', () => {
    expect(dayCounts('2026-01-15', dueDateSchedule('2026-02-15', 12))).toEqual([
      31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365,
    ]);
  });
});
