import { describe, expect, it } from 'vitest';
import { brl } from './signing-page.js';

describe('brl', () => {
  it.each([
    ['0.00', 'R$ 0,00'],
    ['945.60', 'R$ 945,60'],
    ['1000.00', 'R$ 1.000,00'],
    ['11347.20', 'R$ 11.347,20'],
    ['1234567.89', 'R$ 1.234.567,89'],
  ])('writes %s as %s', (value, text) => {
    expect(brl(value)).toBe(text);
  });
});
