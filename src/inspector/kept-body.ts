import { redact, redactText } from '../lib/redact.js';
import type { JsonValue } from '../store/records.js';

/**
 * The most of a request or response body the inspector keeps, in characters (UTF-16 code units).
 * A longer body is kept as a marker with its first characters and its size: a 15 MiB body costs
 * the log ~4 KB, not 15 MiB, and a page of the log stays small.
 */
export const MAX_KEPT_BODY_CHARS = 4096;

/** What the inspector keeps of a body longer than MAX_KEPT_BODY_CHARS. */
export interface TruncatedBody {
  truncated: true;
  /** The whole body's size in bytes (UTF-8), as received or sent. */
  original_bytes: number;
  /** Its first MAX_KEPT_BODY_CHARS characters, secrets redacted as text. */
  text: string;
}

function truncated(text: string): TruncatedBody {
  return {
    truncated: true,
    original_bytes: Buffer.byteLength(text),
    text: redactText(text.slice(0, MAX_KEPT_BODY_CHARS)),
  };
}

/**
 * A request body as the inspector keeps it: a form as an object, JSON parsed, anything else as
 * text; secrets redacted; a long body truncated (never parsed or walked: it costs one slice).
 * `parsed` is `JSON.parse(text)` when the request path has it already (the body's check).
 */
export function keptRequestBody(text: string, contentType: string, parsed?: unknown): JsonValue {
  if (text.length > MAX_KEPT_BODY_CHARS) return truncated(text) as unknown as JsonValue;
  if (contentType.includes('application/x-www-form-urlencoded')) {
    return redact(Object.fromEntries(new URLSearchParams(text)));
  }
  if (parsed !== undefined) return redact(parsed);
  try {
    return redact(JSON.parse(text));
  } catch {
    return redactText(text);
  }
}

/**
 * An answer as the log stores it: as sent when short, or the truncation marker as JSON text (its
 * first MAX_KEPT_BODY_CHARS characters as they were sent). Either way it is redacted on the way out
 * of the log (`redactJsonText`, given to the store as its answer filter), which is also what the
 * `--data` journal and the database receive: an answer costs its request no redaction pass.
 */
export function keptResponseText(text: string): string {
  if (text.length <= MAX_KEPT_BODY_CHARS) return text;
  const marker: TruncatedBody = {
    truncated: true,
    original_bytes: Buffer.byteLength(text),
    text: text.slice(0, MAX_KEPT_BODY_CHARS),
  };
  return JSON.stringify(marker);
}
