import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOSSY_UTF8 = new TextDecoder('utf-8');
// After a strict decode the text is well-formed, so a lone surrogate can only come from a JSON
// escape (`\ud800`); only bodies with such an escape need parsing here.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Refuses JSON bodies whose strings are not well-formed Unicode: invalid UTF-8 bytes and lone
 * surrogates (`"\ud800"`) would otherwise be stored (as U+FFFD or as broken UTF-16) and sent on
 * in responses and webhooks that strict clients cannot decode. Answers 400 `validation_failed`
 * naming the field. The decoded text is handed on to the route's validator (no second read).
 * A body that is not JSON at all is left to the validator (`malformed_json`).
 */
export function wellFormedText(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!JSON_MEDIA_TYPE.test(mediaType)) return next();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    let text: string;
    try {
      text = STRICT_UTF8.decode(bytes);
    } catch {
      const field = findField(parseOrUndefined(LOSSY_UTF8.decode(bytes)), (s) => s.includes('\uFFFD'));
      throw refusal(field, 'is not valid UTF-8');
    }
    if (SURROGATE_ESCAPE.test(text)) {
      const field = findField(parseOrUndefined(text), (s) => !isWellFormed(s));
      if (field !== undefined) throw refusal(field, 'contains a lone surrogate (e.g. "\\ud800")');
    }
    // Hono keeps body promises in bodyCache (its type says values); json() then reads this text.
    (c.req.bodyCache as unknown as { text?: Promise<string> }).text = Promise.resolve(text);
    return next();
  };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** True when a string has no unpaired UTF-16 surrogate (String#isWellFormed, Node 20+). */
export function isWellFormed(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/**
 * The dotted path (`name`, `events.0`) of the first string, or object key, that fails `bad`;
 * undefined when none does. A bad key is named by its parent's path plus the key itself.
 */
export function findField(
  value: unknown,
  bad: (s: string) => boolean,
  path: string[] = [],
): string | undefined {
  if (typeof value === 'string') return bad(value) ? path.join('.') || 'body' : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findField(item, bad, [...path, String(index)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (bad(key)) return [...path, key].join('.');
      const found = findField(item, bad, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function refusal(field: string | undefined, problem: string): ApiError {
  const param = field ?? 'body';
  return new ApiError(
    'validation_failed',
    `Invalid request: ${param} ${problem}. Send text as UTF-8 JSON with well-formed strings.`,
    { param, errors: [{ param, detail: `${param} ${problem}`, code: 'invalid_text' }] },
  );
}
