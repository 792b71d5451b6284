import { describe, expect, it } from 'vitest';
import { addLocalDays, BRAZIL_TIME_ZONE, localDate, startOfLocalDayMs, zoneOffsetMs } from './local-day.js';

describe('São Paulo days', () => {
  it('names the zone once', () => {
    expect(BRAZIL_TIME_ZONE).toBe('America/Sao_Paulo');
  });

  it('reads the local date of an instant: 23:30 in São Paulo is still that day, 00:00 the next', () => {
    expect(localDate(Date.parse('2026-05-11T02:30:00Z'))).toBe('2026-05-10');
    expect(localDate(Date.parse('2026-05-11T02:59:59.999Z'))).toBe('2026-05-10');
    expect(localDate(Date.parse('2026-05-11T03:00:00Z'))).toBe('2026-05-11');
    expect(zoneOffsetMs(Date.parse('2026-05-11T03:00:00Z'))).toBe(-3 * 3_600_000);
  });

  it('starts a local day at 03:00 UTC (UTC-3, no daylight saving since 2019)', () => {
    expect(new Date(startOfLocalDayMs('2026-05-11')).toISOString()).toBe('2026-05-11T03:00:00.000Z');
    expect(new Date(startOfLocalDayMs('2027-01-01')).toISOString()).toBe('2027-01-01T03:00:00.000Z');
  });

  it('follows the historical daylight-saving offsets, midnight gaps included', () => {
    // 2018-11-04: clocks jumped from 00:00 to 01:00 (UTC-2 from then on): the day began at 01:00.
    expect(new Date(startOfLocalDayMs('2018-11-04')).toISOString()).toBe('2018-11-04T03:00:00.000Z');
    expect(new Date(startOfLocalDayMs('2018-12-25')).toISOString()).toBe('2018-12-25T02:00:00.000Z');
    for (const date of ['2018-11-03', '2018-11-04', '2018-11-05', '2019-02-16', '2019-02-17']) {
      expect(localDate(startOfLocalDayMs(date))).toBe(date);
      expect(localDate(startOfLocalDayMs(date) - 1)).not.toBe(date);
    }
  });

  it('adds local days keeping the local time of day', () => {
    const start = Date.parse('2026-03-02T12:00:00Z');
    expect(new Date(addLocalDays(start, 30)).toISOString()).toBe('2026-04-01T12:00:00.000Z');
    // Across a daylight-saving start the UTC instant moves by 23 hours.
    expect(new Date(addLocalDays(Date.parse('2018-11-01T12:00:00Z'), 10)).toISOString()).toBe(
      '2018-11-11T11:00:00.000Z',
    );
  });
});
