import type { JsonValue } from '../store/records.js';

/** Keys whose values are secrets wherever they appear in a body (request or response). */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'client_secret',
  'secret',
  'previous_secret',
  'access_token',
  'refresh_token',
  'password',
]);

export const REDACTED = '[redacted]';

/**
 * A copy of `value` with every secret key's value replaced by `[redacted]`. Parts without secrets
 * are shared, not copied, so a response without secrets costs one walk and no allocation.
 */
export function redact(value: unknown): JsonValue {
  return walk(value) as JsonValue;
}

function walk(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = walk(item);
      if (next !== item) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const object = value as Record<string, unknown>;
  for (const key in object) {
    const item = object[key];
    const next = SECRET_KEYS.has(key) && item !== null && item !== undefined ? REDACTED : walk(item);
    if (next !== item) {
      copy ??= { ...object };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/** An `Authorization` header reduced to its scheme: `Bearer [redacted]`. */
export function redactAuthorization(header: string): string {
  if (header.startsWith('Bearer ')) return BEARER;
  const space = header.indexOf(' ');
  return space > 0 ? `${header.slice(0, space)} ${REDACTED}` : REDACTED;
}

// The common answer, made once rather than per request.
const BEARER = `Bearer ${REDACTED}`;

// A secret key written as a JSON key ends in one of these just before its closing quote.
const SECRET_MARKERS = ['secret"', '_token"', 'password"'];

/**
 * A JSON text with its secrets redacted. Texts that cannot hold a secret key (almost every
 * answer) are returned as they are, without parsing.
 */
export function redactJsonText(text: string): string {
  if (!SECRET_MARKERS.some((marker) => text.includes(marker))) return text;
  try {
    return JSON.stringify(redact(JSON.parse(text)));
  } catch {
    return text;
  }
}
