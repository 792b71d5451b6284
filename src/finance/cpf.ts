/**
 * CPF, the individual taxpayer id: 9 base digits and 2 check digits, mod 11 with weights 10..2 and
 * 11..2. Accepted written bare ("12345678909") or masked ("123.456.789-09").
 */

const CPF_PATTERN = /^(\d{3})\.?(\d{3})\.?(\d{3})-?(\d{2})$/;

/** The 2 check digits of a CPF whose 9 base digits are given. */
export function cpfCheckDigits(base: string): string {
  if (!/^\d{9}$/.test(base)) throw new RangeError(`A CPF base is 9 digits, got "${base}".`);
  const first = checkDigit(base, 10);
  return `${first}${checkDigit(base + first, 11)}`;
}

/** A valid 11-digit CPF built from 9 base digits (test fixtures, magic profiles). */
export function generateCpf(base: string): string {
  return base + cpfCheckDigits(base);
}

/** The 11 digits of a valid CPF, or null when the input is malformed, fails its check digits or repeats one digit. */
export function normalizeCpf(input: string): string | null {
  const match = CPF_PATTERN.exec(input.trim());
  if (!match) return null;
  const digits = match.slice(1).join('');
  // All-same-digit numbers pass the arithmetic but are never issued.
  if (/^(\d)\1{10}$/.test(digits)) return null;
  return cpfCheckDigits(digits.slice(0, 9)) === digits.slice(9) ? digits : null;
}

/** True for a valid CPF, bare or masked. */
export function isValidCpf(input: string): boolean {
  return normalizeCpf(input) !== null;
}

/** Masks 11 CPF digits as 123.456.789-09. */
export function formatCpf(digits: string): string {
  if (!/^\d{11}$/.test(digits)) throw new RangeError(`A CPF has 11 digits, got "${digits}".`);
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

// Weights run from `firstWeight` down to 2 across the digits.
function checkDigit(digits: string, firstWeight: number): number {
  let sum = 0;
  for (let k = 0; k < digits.length; k += 1) sum += Number(digits[k]) * (firstWeight - k);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}
