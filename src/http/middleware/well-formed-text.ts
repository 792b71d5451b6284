import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { jsonDepth } from '../../lib/json-depth.js';
import type { AppEnv } from '../env.js';
import { impossibleId } from '../path-params.js';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
/** Deepest nesting of arrays and objects a JSON body may have (no endpoint needs more than ~6). */
export const MAX_JSON_DEPTH = 64;
// `charset=` in a Content-Type (its value quoted or not).
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
// A NUL written as a JSON escape (a raw NUL is not valid JSON: the parser refuses it).
const NUL_ESCAPE = '\\u0000';
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOSSY_UTF8 = new TextDecoder('utf-8');
// After a strict decode the text is well-formed, so a lone surrogate can only come from a JSON
// escape (`\ud800`); only bodies with such an escape need parsing here.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Refuses JSON bodies whose strings are not well-formed Unicode: invalid UTF-8 bytes and lone
 * surrogates (`"\ud800"`) would otherwise be stored (as U+FFFD or as broken UTF-16) and sent on
 * in responses and webhooks that strict clients cannot decode. Answers 400 `validation_failed`
 * naming the field. Also refused, each before anything parses the body: a charset other than
 * UTF-8 (`unsupported_charset`), a byte-order mark, NUL in any string or key (PostgreSQL cannot
 * store it), and nesting deeper than MAX_JSON_DEPTH (`json_too_deep`). Form bodies get the
 * charset, UTF-8 and NUL checks. The decoded text is handed on to the route's validator (no second
 * read). A body that is not JSON at all is left to the validator (`malformed_json`).
 */
export function wellFormedText(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const contentType = c.req.header('content-type') ?? '';
    const kind = textKind(contentType);
    if (kind === undefined) return next();
    refuseOtherCharsets(contentType);
    const text = checkedText(kind, new Uint8Array(await c.req.arrayBuffer()));
    // Hono keeps body promises in bodyCache (its type says values); json() then reads this text.
    (c.req.bodyCache as unknown as { text?: Promise<string> }).text = Promise.resolve(text);
    return next();
  };
}

/** Whether a body of this Content-Type gets the text checks: JSON, a form, or neither. */
export function textKind(contentType: string): 'json' | 'form' | undefined {
  const mediaType = contentType.split(';')[0]?.trim() ?? '';
  if (JSON_MEDIA_TYPE.test(mediaType)) return 'json';
  return mediaType.toLowerCase() === FORM_MEDIA_TYPE ? 'form' : undefined;
}

/**
 * The checks of `wellFormedText` on a JSON or form body's bytes (its charset checked before):
 * the decoded text, or the 400 problem that names the field.
 */
export function checkedText(kind: 'json' | 'form', bytes: Uint8Array): string {
  // A byte-order mark is refused rather than stripped: production's parsers may refuse it, and
  // a client that sends one should learn here, not there.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw refusal('body', 'starts with a UTF-8 byte-order mark (EF BB BF); send the JSON without it');
  }
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    const decoded = LOSSY_UTF8.decode(bytes);
    const field = kind === 'json' ? findTextField(decoded, (s) => s.includes('\uFFFD')) : undefined;
    throw refusal(field, 'is not valid UTF-8');
  }
  if (kind === 'form') {
    refuseFormNul(text);
    return text;
  }
  // Before anything parses or walks it: every later walk may then recurse safely.
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError(
      'json_too_deep',
      `The JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
      { param: 'body' },
    );
  }
  if (SURROGATE_ESCAPE.test(text)) {
    const field = findTextField(text, (s) => !isWellFormed(s));
    if (field !== undefined) throw refusal(field, 'contains a lone surrogate (e.g. "\\ud800")');
  }
  if (text.includes(NUL_ESCAPE)) {
    const field = findTextField(text, (s) => s.includes('\u0000'));
    if (field !== undefined) throw refusal(field, 'contains a NUL character (\\u0000)');
  }
  return text;
}

/**
 * Refuses a NUL (`%00`) in the path or query of any /v3 request. PostgreSQL cannot hold NUL in
 * text, and no identifier or filter contains one: in the path it names nothing (404, the shared
 * `impossibleId` rule), in the query it is a 400 naming the parameter. A request without `%00`
 * costs one substring search.
 */
export function wellFormedUrl(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    refuseNulInUrl(c.req.url);
    return next();
  };
}

/** The check of `wellFormedUrl` on a request's URL (absolute, or a path with its query). */
export function refuseNulInUrl(url: string): void {
  if (!url.includes('%00')) return;
  const parsed = new URL(url, 'http://localhost');
  if (parsed.pathname.includes('%00')) throw impossibleId('path', 'holds a NUL character (%00)');
  for (const [key, value] of parsed.searchParams) {
    if (key.includes('\u0000') || value.includes('\u0000')) {
      throw refusal(key.includes('\u0000') ? 'query' : key, 'contains a NUL character (%00)');
    }
  }
}

/** Bodies are UTF-8: any other declared charset is refused rather than misread. */
export function refuseOtherCharsets(contentType: string): void {
  const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return;
  throw new ApiError(
    'unsupported_charset',
    `This body declares charset=${charset.slice(0, 40)}; the sandbox reads request bodies as UTF-8 only. Encode the body as UTF-8 and send charset=utf-8 (or no charset).`,
    { param: 'content-type' },
  );
}

function refuseFormNul(text: string): void {
  if (!text.includes('%00')) return;
  for (const [key, value] of new URLSearchParams(text)) {
    if (key.includes('\u0000') || value.includes('\u0000')) {
      throw refusal(key.includes('\u0000') ? 'body' : key, 'contains a NUL character (%00)');
    }
  }
}

/** `findField` over a JSON text (undefined when it does not parse: the validator says so). */
function findTextField(text: string, bad: (s: string) => boolean): string | undefined {
  // Depth-bounded: called only on texts that passed the depth check, or with the depth checked here.
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return undefined;
  return findField(parseOrUndefined(text), bad);
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
  // A field named with a NUL or a lone surrogate is shown escaped, not echoed.
  const param = field === undefined ? 'body' : JSON.stringify(field).slice(1, -1);
  return new ApiError(
    'validation_failed',
    `Invalid request: ${param} ${problem}. Send text as UTF-8 JSON with well-formed strings.`,
    { param, errors: [{ param, detail: `${param} ${problem}`, code: 'invalid_text' }] },
  );
}
