/**
 * CNPJ, the company taxpayer id, numeric or alphanumeric (Receita Federal, in force from July 2026):
 * 12 base characters [0-9A-Z] and 2 numeric check digits. Each character is worth its ASCII code
 * minus 48 ('0'..'9' -> 0..9, 'A' -> 17 ... 'Z' -> 42), so numeric CNPJs keep their check digits.
 * Accepted bare ("12ABC34501DE35") or masked ("12.ABC.345/01DE-35"), in either letter case.
 */

const CNPJ_PATTERN = /^([0-9A-Z]{2})\.?([0-9A-Z]{3})\.?([0-9A-Z]{3})\/?([0-9A-Z]{4})-?(\d{2})$/;
const FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** The 2 check digits of a CNPJ whose 12 base characters (digits or uppercase letters) are given. */
export function cnpjCheckDigits(base: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base)) {
    throw new RangeError(`A CNPJ base is 12 characters 0-9 or A-Z (uppercase), got "${base}".`);
  }
  const first = checkDigit(base, FIRST_WEIGHTS);
  return `${first}${checkDigit(base + first, SECOND_WEIGHTS)}`;
}

/** A valid 14-character CNPJ built from 12 base characters (test fixtures, magic profiles). */
export function generateCnpj(base: string): string {
  return base + cnpjCheckDigits(base);
}

/** The 14 uppercase characters of a valid CNPJ, or null when malformed, failing its check digits or one repeated digit. */
export function normalizeCnpj(input: string): string | null {
  const match = CNPJ_PATTERN.exec(input.trim().toUpperCase());
  if (!match) return null;
  const value = match.slice(1).join('');
  // 00000000000000 and its kin pass the arithmetic but are never issued.
  if (/^(.)\1{13}$/.test(value)) return null;
  return cnpjCheckDigits(value.slice(0, 12)) === value.slice(12) ? value : null;
}

/** True for a valid CNPJ, numeric or alphanumeric, bare or masked. */
export function isValidCnpj(input: string): boolean {
  return normalizeCnpj(input) !== null;
}

/** Masks 14 CNPJ characters as 12.ABC.345/01DE-35. */
export function formatCnpj(value: string): string {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value))
    throw new RangeError(`A CNPJ has 12 characters 0-9/A-Z and 2 digits, got "${value}".`);
  return `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12)}`;
}

function checkDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  weights.forEach((weight, k) => {
    sum += (chars.charCodeAt(k) - 48) * weight;
  });
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}
