import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EARLIEST_MS,
  instant,
  isCleanText,
  isoDate,
  jsonObject,
  LATEST_MS,
  money,
  seq,
  text,
} from './record-rules.js';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('record rules', () => {
  it('instants: exactly what toISOString writes, 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: EARLIEST_MS, max: LATEST_MS }), (ms) => {
        expect(ok(instant, new Date(ms).toISOString())).toBe(true);
      }),
    );
    for (const bad of [
      '+275760-09-12T23:59:59.000Z',
      '1969-12-31T23:59:59.999Z',
      '2026-02-29T00:00:00.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-03-02T24:00:00.000Z',
      '2026-03-02T12:00:00Z',
      '2026-03-02T12:00:00.000+00:00',
      '2026-03-02',
      8.64e15,
      null,
    ]) {
      expect(ok(instant, bad), String(bad)).toBe(false);
    }
    expect(ok(instant, '2024-02-29T00:00:00.000Z')).toBe(true);
  });

  it('dates: real calendar days from 1970', () => {
    expect(ok(isoDate, '2026-03-02')).toBe(true);
    expect(ok(isoDate, '2000-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '1969-12-31', '10000-01-01', '2026-3-2', '']) {
      expect(ok(isoDate, bad), bad).toBe(false);
    }
  });

  it('money: 2-place decimal strings, never numbers', () => {
    for (const good of ['0.00', '1000.00', '999999999999999.99']) expect(ok(money, good), good).toBe(true);
    for (const bad of [1000, '1000', '1000.0', '01.00', '-1.00', '1e3', '1000.001', '1000000000000000.00']) {
      expect(ok(money, bad), String(bad)).toBe(false);
    }
  });

  it('sequence numbers: whole, not negative, exact', () => {
    expect(ok(seq, Number.MAX_SAFE_INTEGER)).toBe(true);
    for (const bad of [-1, 1.5, 2 ** 53, Number.NaN, '1']) expect(ok(seq, bad), String(bad)).toBe(false);
  });

  it('text: no NUL, no lone surrogate, bounded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        expect(isCleanText(value)).toBe(!value.includes('\u0000'));
      }),
    );
    for (const bad of ['a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800'])
      expect(isCleanText(bad), bad).toBe(false);
    expect(isCleanText('😀 Maria')).toBe(true);
    expect(ok(text(3), 'abcd')).toBe(false);
  });

  it('free JSON: clean text in values and keys, finite numbers, bounded nesting, no prototype set', () => {
    expect(ok(jsonObject, { a: [1, 'b', null, { c: true }] })).toBe(true);
    expect(ok(jsonObject, { a: 'x\u0000' })).toBe(false);
    expect(ok(jsonObject, { ['\ud800']: 1 })).toBe(false);
    // A `__proto__` key never reaches a stored object (it would set the object's prototype).
    const parsed = jsonObject.parse(JSON.parse('{"__proto__": {"x": 1}, "y": 2}'));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(false);
    expect(ok(jsonObject, { a: Number.POSITIVE_INFINITY })).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(ok(jsonObject, deep)).toBe(false);
    expect(ok(jsonObject, [1])).toBe(false);
  });
});
