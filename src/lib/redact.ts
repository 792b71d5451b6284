/** A JSON value (the same shape as the store's `JsonValue`, declared here so `lib/` imports nothing). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What counts as a secret wherever a request is recorded or printed (the inspector's API and
 * dashboard page, the `--data` journal, the database rows, the access log, and the validating proxy's
 * recordings, which is why these pure rules live in `lib/`):
 * - a body key, query parameter or form field named `authorization`, `password`, `secret` or
 *   `*_secret`, or containing `token` (`access_token`, `refresh_token`, `id_token`…), except
 *   `token_type`, whose value ("Bearer") is no secret;
 * - any value that carries one of the sandbox's own secret formats: a client secret `svc_cs_…`,
 *   an access token `svc_at_…` or a webhook signing secret `whsec_…`, wherever it appears (a
 *   value, a path segment, a header, an `Idempotency-Key`).
 */
export function isSecretKey(key: string): boolean {
  const name = key.toLowerCase();
  if (name.includes('token')) return name !== 'token_type';
  return name === 'authorization' || name === 'password' || name === 'secret' || name.endsWith('_secret');
}

export const REDACTED = '[redacted]';

// The sandbox's secret formats, up to the end of the token (JWT dots and base64url included).
const SECRET_VALUE = /(?:svc_cs_|svc_at_|whsec_)[A-Za-z0-9_.~+/=-]*/g;
const SECRET_PREFIXES = ['svc_cs_', 'svc_at_', 'whsec_'];

/** Walks deeper than this are cut (request bodies are refused beyond 64 levels anyway). */
const MAX_DEPTH = 64;

/** Whether a text may hold a secret value (one native search per prefix; no regex run). */
function mayHoldSecretValue(text: string): boolean {
  return SECRET_PREFIXES.some((prefix) => text.includes(prefix));
}

/** A text with every secret-format value replaced by `[redacted]`. */
export function redactValues(text: string): string {
  return mayHoldSecretValue(text) ? text.replace(SECRET_VALUE, REDACTED) : text;
}

/**
 * A copy of `value` with every secret key's value and every secret-format string replaced by
 * `[redacted]`. Parts without secrets are shared, not copied, so a body without secrets costs one
 * walk and no allocation. Depth-bounded: what lies deeper than 64 levels is replaced.
 */
export function redact(value: unknown): JsonValue {
  return walk(value, 0) as JsonValue;
}

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactValues(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = walk(item, depth + 1);
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
    const next = isSecretKey(key) && item !== null && item !== undefined ? REDACTED : walk(item, depth + 1);
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

// Cheap signs that a JSON text may hold a secret key or value, checked before parsing it.
const SECRET_MARKERS = ['secret"', 'token', 'password"', 'authorization"', ...SECRET_PREFIXES];

/**
 * A JSON text with its secrets redacted. Texts that cannot hold a secret (almost every answer)
 * are returned as they are, without parsing. A text that is not JSON (a truncated head) has its
 * secret-looking pairs and values redacted as text.
 */
export function redactJsonText(text: string): string {
  // A long answer kept as a truncation marker: its head is text, not JSON (kept-body.ts).
  if (text.startsWith(TRUNCATED_MARKER)) return redactTruncated(text);
  if (!SECRET_MARKERS.some((marker) => text.includes(marker))) return text;
  try {
    return JSON.stringify(redact(JSON.parse(text)));
  } catch {
    return redactText(text);
  }
}

const TRUNCATED_MARKER = '{"truncated":true,';

function redactTruncated(text: string): string {
  try {
    const marker = JSON.parse(text) as { text?: unknown };
    if (typeof marker.text !== 'string') return redactText(text);
    const head = redactText(marker.text);
    return head === marker.text ? text : JSON.stringify({ ...marker, text: head });
  } catch {
    return redactText(text);
  }
}

// `"key": "value"` / `key=value` pairs inside a text that cannot be parsed (a truncated body).
const JSON_PAIR = /"([^"\\]{1,100})"(\s*:\s*)"((?:[^"\\]|\\.)*)("?)/g;
const FORM_PAIR = /(^|[&?\s])([^=&\s]{1,100})=([^&\s]*)/g;

/**
 * Secrets in free text (a truncated body, a URL): secret-format values, then the values of
 * secret-named `"key": "…"` and `key=…` pairs.
 */
export function redactText(text: string): string {
  let out = redactValues(text);
  out = out.replace(JSON_PAIR, (pair, key: string, colon: string, value: string, close: string) =>
    isSecretKey(key) && value !== REDACTED ? `"${key}"${colon}"${REDACTED}${close}` : pair,
  );
  return out.replace(FORM_PAIR, (pair, before: string, key: string, value: string) =>
    isSecretKey(safeDecode(key)) && value !== REDACTED ? `${before}${key}=${REDACTED}` : pair,
  );
}

// Query parameter names worth a closer look (one regex test per query, no parsing).
const SECRET_QUERY_HINT = /token|secret|password|authorization|svc_|whsec_/i;

/** A raw query string (no `?`) with secret parameters' values and secret-format values redacted. */
export function redactQuery(query: string): string {
  if (!SECRET_QUERY_HINT.test(query)) return query;
  return query
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const key = equals < 0 ? part : part.slice(0, equals);
      if (equals >= 0 && isSecretKey(safeDecode(key))) return `${key}=${REDACTED}`;
      return redactValues(part);
    })
    .join('&');
}

/** A request target (`/path?query`) as logs may print it. */
export function redactTarget(target: string): string {
  const question = target.indexOf('?');
  if (question < 0) return redactValues(target);
  return `${redactValues(target.slice(0, question))}?${redactQuery(target.slice(question + 1))}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

// Headers that carry credentials whatever their name says.
const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'proxy-authorization']);

/**
 * A set of headers as a recording keeps them (names lower case): `Authorization` reduced to its
 * scheme, secret-named headers (`*token*`, `*_secret`, cookies) replaced, and secret-format values
 * redacted in every other header.
 */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') out[lower] = redactAuthorization(value);
    else if (SECRET_HEADERS.has(lower) || isSecretKey(lower.replaceAll('-', '_'))) out[lower] = REDACTED;
    else out[lower] = redactValues(value);
  }
  return out;
}
