import { describe, expect, it } from 'vitest';
import { advanceBody } from './clock.js';
import { UsageError } from './context.js';

describe('clock advance targets', () => {
  it('takes durations and ISO dates or date-times', () => {
    expect(advanceBody('35d')).toEqual({ by: '35d' });
    expect(advanceBody('90s')).toEqual({ by: '90s' });
    expect(advanceBody('2026-12-01')).toEqual({ to: '2026-12-01T00:00:00.000Z' });
    expect(advanceBody('2026-12-01T10:00:00-03:00')).toEqual({ to: '2026-12-01T13:00:00.000Z' });
  });

  it('refuses a bare number (Date.parse would read "35" as the year 2035) with a suggestion', () => {
    expect(() => advanceBody('35')).toThrow(UsageError);
    expect(() => advanceBody('35')).toThrow('did you mean 35d?');
    expect(() => advanceBody('2035')).toThrow('did you mean 2035d?');
  });

  it.each(['soon', '35 d', '1w', 'Dec 1 2026', '-5d'])('refuses "%s"', (text) => {
    expect(() => advanceBody(text)).toThrow(UsageError);
  });
});
