import { describe, expect, it } from 'vitest';
import { brl, clockOffset, cpf, relative, span, utc } from './format.js';

describe('dashboard formatting', () => {
  it('writes money as R$ with thousands dots and two decimals', () => {
    expect(brl('10000.00')).toBe('R$ 10.000,00');
    expect(brl('945.6')).toBe('R$ 945,60');
    expect(brl('1234567.89')).toBe('R$ 1.234.567,89');
    expect(brl('0.00')).toBe('R$ 0,00');
    expect(brl('-12.50')).toBe('-R$ 12,50');
    expect(brl(null)).toBe('—');
  });

  it('writes times in UTC to the second', () => {
    expect(utc('2026-03-01T12:00:05.123Z')).toBe('2026-03-01 12:00:05 UTC');
    expect(utc(null)).toBe('—');
  });

  it('says how far the partner clock is from real time', () => {
    const real = Date.parse('2026-03-01T00:00:00Z');
    expect(clockOffset(real + 35 * 86_400_000, real)).toBe('35 d ahead of real time');
    expect(clockOffset(real + 500, real)).toBe('in step with real time');
    expect(clockOffset(real - 2 * 3_600_000 - 5 * 60_000, real)).toBe('2 h 5 min behind real time');
  });

  it('gives coarse relative times on the partner clock', () => {
    const now = Date.parse('2026-03-10T00:00:00Z');
    expect(relative('2026-03-07T00:00:00Z', now)).toBe('3 d ago');
    expect(relative('2026-03-10T02:00:00Z', now)).toBe('in 2 h');
    expect(span(0)).toBe('0 s');
  });

  it('masks a CPF', () => {
    expect(cpf('12345678909')).toBe('123.456.789-09');
    expect(cpf('abc')).toBe('abc');
  });
});
