import { describe, expect, it } from 'vitest';
import { advanceBody, advanceTarget } from './clock.js';
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

describe('clock advance: the argument, --to or --by', () => {
  it('takes exactly one of them', () => {
    expect(advanceTarget(undefined, { to: '2026-12-01T00:00:00Z' })).toBe('2026-12-01T00:00:00Z');
    expect(advanceTarget(undefined, { by: '35d' })).toBe('35d');
    expect(advanceTarget('35d', {})).toBe('35d');
    expect(() => advanceTarget(undefined, {})).toThrow('as the argument or with --by / --to');
    expect(() => advanceTarget('35d', { to: '2026-12-01' })).toThrow('takes one of');
  });

  it('points a duration given to --to at --by, and a date-time given to --by at --to', () => {
    expect(() => advanceTarget(undefined, { to: '35d' })).toThrow('for a duration use --by 35d');
    expect(() => advanceTarget(undefined, { by: '2026-12-01' })).toThrow('use --to 2026-12-01');
  });
});
