import { describe, expect, it } from 'vitest';
import { digitStream, isValidCpf, makeCnpj, makeCpf } from './identity.js';

describe('the kit’s CPFs and CNPJs', () => {
  it('are valid, start with a non-zero digit, and repeat for the same seed', () => {
    const a = digitStream('run:check');
    const b = digitStream('run:check');
    for (let k = 0; k < 200; k++) {
      const cpf = makeCpf(a);
      expect(isValidCpf(cpf)).toBe(true);
      expect(cpf[0]).not.toBe('0');
      expect(makeCpf(b)).toBe(cpf);
    }
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224726')).toBe(false);
  });

  it('makes CNPJs with the Receita’s check digits (11.222.333/0001-81 checks out the same way)', () => {
    expect(makeCnpj(digitStream('x'))).toMatch(/^\d{8}0001\d{2}$/);
    const known = [1, 1, 2, 2, 2, 3, 3, 3];
    // Feed the known base's digits: the first is drawn as 1 + d % 9, so feed 0 for the leading 1.
    const digits = [0, ...known.slice(1)];
    const feed = () => digits.shift() as number;
    expect(makeCnpj(feed)).toBe('11222333000181');
  });
});
