import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpfCheckDigits, formatCpf, generateCpf, isValidCpf, normalizeCpf } from './cpf.js';

// Written separately from the published rule, in its "sum × 10 mod 11, 10 counts as 0" form, to
// cross-check the module's "11 − remainder" form.
function referenceCpfIsValid(digits: string): boolean {
  if (!/^[0-9]{11}$/.test(digits)) return false;
  if (new Set(digits).size === 1) return false;
  const d = Array.from(digits, Number);
  let sum1 = 0;
  for (let i = 0; i < 9; i++) sum1 += (d[i] ?? 0) * (10 - i);
  let dv1 = (sum1 * 10) % 11;
  if (dv1 === 10) dv1 = 0;
  let sum2 = 0;
  for (let i = 0; i < 10; i++) sum2 += (d[i] ?? 0) * (11 - i);
  let dv2 = (sum2 * 10) % 11;
  if (dv2 === 10) dv2 = 0;
  return dv1 === d[9] && dv2 === d[10];
}

const digit = fc.constantFrom(...'0123456789');
const digits = (length: number) => fc.string({ unit: digit, minLength: length, maxLength: length });

describe('CPF', () => {
  it('accepts known valid CPFs, bare or masked', () => {
    for (const cpf of [
      '529.982.247-25',
      '52998224725',
      '123.456.789-09',
      '111.444.777-35',
      ' 123.456.789-09 ',
    ]) {
      expect(isValidCpf(cpf)).toBe(true);
    }
    expect(normalizeCpf('123.456.789-09')).toBe('12345678909');
  });

  it('refuses wrong check digits, repeated digits and malformed input', () => {
    for (const cpf of [
      '123.456.789-00',
      '529.982.247-52',
      '111.111.111-11',
      '00000000000',
      '99999999999',
      '1234567890',
      '123456789090',
      '123.456.789/09',
      '12a.456.789-09',
      '',
    ]) {
      expect(normalizeCpf(cpf)).toBeNull();
    }
  });

  it('computes check digits and formats', () => {
    expect(cpfCheckDigits('123456789')).toBe('09');
    expect(generateCpf('529982247')).toBe('52998224725');
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
    expect(() => cpfCheckDigits('12345678')).toThrow(/9 digits/);
  });

  it('agrees with the reference implementation on random 11-digit strings', () => {
    fc.assert(
      fc.property(digits(11), (cpf) => {
        expect(isValidCpf(cpf)).toBe(referenceCpfIsValid(cpf));
      }),
      { numRuns: 200 },
    );
  });

  it('generates CPFs the reference accepts, masked or not, and judges a one-digit change like the reference', () => {
    fc.assert(
      fc.property(
        digits(9),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 9 }),
        (base, position, shift) => {
          const cpf = generateCpf(base);
          const repeated = new Set(cpf).size === 1;
          expect(referenceCpfIsValid(cpf)).toBe(!repeated);
          expect(normalizeCpf(formatCpf(cpf))).toBe(repeated ? null : cpf);
          const changed =
            cpf.slice(0, position) + String((Number(cpf[position]) + shift) % 10) + cpf.slice(position + 1);
          expect(isValidCpf(changed)).toBe(referenceCpfIsValid(changed));
        },
      ),
      { numRuns: 200 },
    );
  });
});
