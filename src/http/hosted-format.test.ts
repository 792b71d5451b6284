import { describe, expect, it } from 'vitest';
import { badge, brl, clockLine, dateBr, dateTimeBr, percentBr } from './hosted-format.js';

describe('hosted page formats (Brazilian)', () => {
  it.each([
    ['0.00', 'R$ 0,00'],
    ['945.60', 'R$ 945,60'],
    ['1000.00', 'R$ 1.000,00'],
    ['11347.20', 'R$ 11.347,20'],
    ['1234567.89', 'R$ 1.234.567,89'],
  ])('writes %s as %s', (value, text) => {
    expect(brl(value)).toBe(text);
  });

  it('writes percentages, dates and times the same way', () => {
    expect(percentBr('1.79')).toBe('1,79%');
    expect(percentBr('32.14')).toBe('32,14%');
    expect(percentBr('1234.5')).toBe('1.234,5%');
    expect(dateBr('2026-12-15')).toBe('15/12/2026');
    expect(dateBr('2026-01-02T03:04:05.000Z')).toBe('02/01/2026');
    expect(dateTimeBr(Date.parse('2026-01-02T03:04:05.000Z'))).toBe('02/01/2026 03:04 UTC');
  });

  it('labels the partner clock and shows the real time beside it', () => {
    const line = clockLine(
      { nowMs: Date.parse('2027-01-01T00:00:00Z'), frozen: true },
      Date.parse('2026-11-23T19:30:00Z'),
    );
    expect(line).toContain(
      'partner clock: <strong>01/01/2027 00:00 UTC</strong> (frozen) · real time 23/11/2026 19:30 UTC',
    );
  });

  it('gives failure states their own badge class', () => {
    expect(badge('cancelled', 'fail', 'status')).toBe(
      '<span class="badge fail" id="status">cancelled</span>',
    );
    expect(badge('Session expired', 'expired')).toBe('<span class="badge expired">Session expired</span>');
  });
});
