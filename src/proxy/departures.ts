import type { SchemaFailure } from './contract.js';

/**
 * A departure: one place where an exchange differs from what the OpenAPI document says. `where`
 * names the place (`status`, `response header Location`, `response.body.kyc[0].status`,
 * `webhook signature`), `expected` what the document says, `actual` what came back.
 */
export interface Departure {
  where: string;
  expected: string;
  actual: string;
}

/** The JSON type of a value, as a schema names it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A value in a departure: short JSON, never longer than 80 characters. */
export function shortValue(value: unknown): string {
  if (value === undefined) return 'absent';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** A schema failure as a departure under `base` (`response.body`, `request.body`, `webhook.body`). */
export function schemaDeparture(base: string, failure: SchemaFailure): Departure {
  const where = `${base}${failure.at}`;
  const params = failure.params;
  switch (failure.keyword) {
    case 'required':
      return {
        where: `${where}.${String(params.missingProperty)}`,
        expected: 'present (required)',
        actual: 'absent',
      };
    case 'additionalProperties':
      return {
        where: `${where}.${String(params.additionalProperty)}`,
        expected: 'absent (not in the schema)',
        actual: 'present',
      };
    case 'type':
      return {
        where,
        expected: `type ${String(params.type)}`,
        actual: `${jsonType(failure.value)} ${shortValue(failure.value)}`,
      };
    case 'enum':
      return {
        where,
        expected: `one of ${(params.allowedValues as unknown[]).map((v) => shortValue(v)).join(', ')}`,
        actual: shortValue(failure.value),
      };
    case 'const':
      return { where, expected: shortValue(params.allowedValue), actual: shortValue(failure.value) };
    default:
      return { where, expected: `${failure.keyword}: ${failure.message}`, actual: shortValue(failure.value) };
  }
}

/**
 * The one line a departure prints:
 * `✗ createCustomer POST /v3/customers → 201: response header Location: expected present (required), got absent`.
 */
export function departureLine(subject: string, departure: Departure): string {
  return `✗ ${subject}: ${departure.where}: expected ${departure.expected}, got ${departure.actual}`;
}
