import { createHash } from 'node:crypto';
import { generateCpf } from '../../finance/index.js';

/**
 * The generators behind `${random.cpf}`, `${random.hex}`, `${random.email}` and `${random.phone}`.
 * Each use draws a fresh unique token from `unique` (the sandbox's id source, so tests stay
 * deterministic) and hashes it into the shape asked for. CPFs are valid (check digits computed)
 * and never fall in the magic-profile range (base 00000000x).
 */
export function randomValues(unique: () => string): (name: string) => string {
  const digest = () => createHash('sha256').update(unique()).digest();
  return (name) => {
    const bytes = digest();
    const digits = (count: number, offset = 0) =>
      Array.from({ length: count }, (_, k) => String((bytes[offset + k] as number) % 10)).join('');
    switch (name) {
      case 'cpf': {
        // A leading 1-9 keeps it out of the magic range and away from all-same-digit numbers.
        const base = `${((bytes[0] as number) % 9) + 1}${digits(8, 1)}`;
        return generateCpf(base);
      }
      case 'hex':
        return bytes.subarray(0, 8).toString('hex');
      case 'email':
        return `qa+${bytes.subarray(0, 4).toString('hex')}@example.com`;
      case 'phone':
        return `+55119${digits(8)}`;
      default:
        throw new Error(`no random generator "${name}"`);
    }
  };
}
