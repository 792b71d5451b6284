// The kit's own people and references: valid CPFs and CNPJs (check digits per the Receita
// Federal's modulo-11 rule) and recognisable external ids, drawn from a stream seeded by the run
// and the check, so `--compare` sends the same values to both targets.
import { createHash } from 'node:crypto';

/** Deterministic digits: SHA-256 of (seed, counter), read as decimal digits. */
export function digitStream(seed: string): () => number {
  let counter = 0;
  let pool: number[] = [];
  return () => {
    if (pool.length === 0) {
      const bytes = createHash('sha256').update(`${seed}:${counter++}`).digest();
      pool = [...bytes].filter((b) => b < 250).map((b) => b % 10);
    }
    return pool.shift() as number;
  };
}

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  const sum = digits.reduce((acc, d, i) => acc + d * (weights[i] as number), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A valid CPF (11 digits, unmasked) whose first digit is never 0 (test profiles start 000…). */
export function makeCpf(next: () => number): string {
  const base = [1 + (next() % 9), ...Array.from({ length: 8 }, next)];
  if (base.every((d) => d === base[0])) base[8] = ((base[8] as number) + 1) % 10;
  const d1 = checkDigit(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit([...base, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, d1, d2].join('');
}

/** A valid numeric CNPJ (14 digits, unmasked), head office `0001`. */
export function makeCnpj(next: () => number): string {
  const base = [1 + (next() % 9), ...Array.from({ length: 7 }, next), 0, 0, 0, 1];
  const d1 = checkDigit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit([...base, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, d1, d2].join('');
}

/** Valid iff the two check digits match (the kit's own reading of the rule, for its tests). */
export function isValidCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf)) return false;
  const d = [...cpf].map(Number);
  return (
    checkDigit(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[9] &&
    checkDigit(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[10]
  );
}
