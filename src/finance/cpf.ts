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
  const text = input.trim();
  let digits: string;
  if (BARE_CPF.test(text)) digits = text;
  else {
    const match = CPF_PATTERN.exec(text);
    if (!match) return null;
    digits = `${match[1]}${match[2]}${match[3]}${match[4]}`;
  }
  return isIssuable(digits) ? digits : null;
}

const BARE_CPF = /^\d{11}$/;

/** Whether 11 digits carry their own check digits and are not one digit repeated (never issued). */
function isIssuable(digits: string): boolean {
  let first = 0;
  let second = 0;
  let repeated = true;
  const lead = digits.charCodeAt(0);
  for (let k = 0; k < 9; k++) {
    const d = digits.charCodeAt(k) - 48;
    first += d * (10 - k);
    second += d * (11 - k);
    if (digits.charCodeAt(k) !== lead) repeated = false;
  }
  const firstCheck = first % 11 < 2 ? 0 : 11 - (first % 11);
  second += firstCheck * 2;
  const secondCheck = second % 11 < 2 ? 0 : 11 - (second % 11);
  if (digits.charCodeAt(9) !== lead || digits.charCodeAt(10) !== lead) repeated = false;
  return !repeated && digits.charCodeAt(9) - 48 === firstCheck && digits.charCodeAt(10) - 48 === secondCheck;
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
