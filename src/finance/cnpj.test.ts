import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cnpjCheckDigits, formatCnpj, generateCnpj, isValidCnpj, normalizeCnpj } from './cnpj.js';

// Written separately from Receita Federal's published description: values are ASCII code − 48,
// weights 2, 3, ..., 9 assigned from the rightmost character and restarting at 2.
function referenceCnpjCheckDigit(chars: string): number {
  let total = 0;
  let weight = 2;
  for (let i = chars.length - 1; i >= 0; i--) {
    total += (chars.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = total % 11;
  if (rest === 0 || rest === 1) return 0;
  return 11 - rest;
}

function referenceCnpjIsValid(value: string): boolean {
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(value)) return false;
  if (/^0+$/.test(value) || value.split('').every((c) => c === value[0])) return false;
  const dv1 = referenceCnpjCheckDigit(value.substring(0, 12));
  const dv2 = referenceCnpjCheckDigit(value.substring(0, 12) + dv1);
  return value.substring(12) === `${dv1}${dv2}`;
}

const alphanumeric = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const digit = fc.constantFrom(...'0123456789');
const base = fc.string({ unit: alphanumeric, minLength: 12, maxLength: 12 });
const checkPair = fc.string({ unit: digit, minLength: 2, maxLength: 2 });

describe('CNPJ', () => {
  it("accepts Receita Federal's alphanumeric example 12.ABC.345/01DE-35", () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(normalizeCnpj('12.ABC.345/01DE-35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('12ABC34501DE35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(referenceCnpjIsValid('12ABC34501DE35')).toBe(true);
  });

  it('accepts numeric CNPJs, whose check digits are unchanged by the new rule', () => {
    for (const cnpj of ['11.222.333/0001-81', '11222333000181', '11.444.777/0001-61'])
      expect(isValidCnpj(cnpj)).toBe(true);
  });

  it('refuses wrong check digits, repeated digits and malformed input', () => {
    for (const cnpj of [
      '12.ABC.345/01DE-36',
      '11.222.333/0001-82',
      '00.000.000/0000-00',
      '11111111111111',
      '12ABC34501DEAB',
      '12ABC34501DE3',
      '12ABC34501DE355',
      '12-ABC-345-01DE-35',
      '12ABC34501DÉ35',
      '',
    ]) {
      expect(normalizeCnpj(cnpj)).toBeNull();
    }
  });

  it('formats and generates', () => {
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(generateCnpj('112223330001')).toBe('11222333000181');
    expect(() => cnpjCheckDigits('12abc34501de')).toThrow(/uppercase/);
  });

  it('agrees with the reference implementation on random alphanumeric CNPJs', () => {
    fc.assert(
      fc.property(base, checkPair, (head, tail) => {
        expect(isValidCnpj(head + tail)).toBe(referenceCnpjIsValid(head + tail));
      }),
      { numRuns: 200 },
    );
  });

  it('generates CNPJs the reference accepts, masked, bare or lowercase', () => {
    fc.assert(
      fc.property(base, (head) => {
        const cnpj = generateCnpj(head);
        const valid = referenceCnpjIsValid(cnpj);
        expect(normalizeCnpj(cnpj)).toBe(valid ? cnpj : null);
        expect(normalizeCnpj(formatCnpj(cnpj))).toBe(valid ? cnpj : null);
        expect(normalizeCnpj(cnpj.toLowerCase())).toBe(valid ? cnpj : null);
      }),
      { numRuns: 200 },
    );
  });
});
