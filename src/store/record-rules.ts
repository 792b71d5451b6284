import { z } from 'zod';
import { isIsoDate } from '../finance/calendar.js';

/**
 * The building blocks of the row schemas (`*-records.ts`): what the API itself writes, so that a
 * row that comes from outside (a snapshot import, `serve --snapshot`, a data file of an older
 * version) can be checked like one of its own writes. Imports nothing of the store, so every
 * record file can use it without a circle.
 */

/** JSON data an event or a job carries. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** The earliest instant a row may hold: 1970-01-01T00:00:00.000Z. */
export const EARLIEST_MS = 0;
/** The latest instant a row may hold: 9999-12-31T23:59:59.999Z (four-digit years, as `toISOString` writes). */
export const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/**
 * The latest a partner clock may read: 9900-01-01T00:00:00.000Z. Everything the API dates from the
 * clock (offer validity, due dates up to 36 months ahead, retries) then stays within `LATEST_MS`.
 */
export const LATEST_CLOCK_MS = Date.UTC(9900, 0, 1);
/**
 * Above this, an insertion counter is damaged (a million writes a second would need 35 years to
 * get here): the store re-numbers such rows when it loads them (see `seq-repair.ts`).
 */
export const SEQ_CEILING = 2 ** 50;

/** The insertion counter after `seq`; throws rather than count past Number.MAX_SAFE_INTEGER (inexact). */
export function nextExactSeq(seq: number): number {
  if (seq >= Number.MAX_SAFE_INTEGER)
    throw new Error(`the insertion counter is at ${seq}: it cannot count further exactly`);
  return seq + 1;
}

// NUL or any surrogate: text without one is clean at once (the common case, one scan).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
// An unpaired UTF-16 surrogate: a high one not followed by a low one, or a low one alone.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The text rule of every string the API stores: no NUL, no lone surrogate (PostgreSQL and strict clients refuse them). */
export function isCleanText(value: string): boolean {
  if (!SUSPECT.test(value)) return true;
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** Text of at most `max` UTF-16 units that follows the text rule. */
export function text(max: number, min = 0) {
  return z.string().min(min).max(max).refine(isCleanText, 'must not contain NUL or a lone surrogate');
}

/**
 * Text the API stores as something outside sent it, unchecked (a webhook receiver's answer, the
 * name of an uploaded file): kept as given, a NUL stored as U+2400 as PostgreSQL stores it.
 */
export function receivedText(max: number) {
  return z
    .string()
    .max(max)
    .transform((value) => (value.includes('\u0000') ? value.replaceAll('\u0000', '\u2400') : value))
    .pipe(text(max));
}

/** Text the API trims before storing: no blank at either end, 1 to `max` characters. */
export function trimmedText(max: number) {
  return text(max, 1).refine((value) => value.trim() === value, 'must not start or end with a blank');
}

/** `prefix` + 32 lowercase hex digits: the ids the API makes. */
export function idOf(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}[0-9a-f]{32}$`), `must be ${prefix} and 32 hex digits`);
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether `value` is `YYYY-MM-DDTHH:mm:ss.sssZ` naming a real instant from 1970 to 9999. */
function isInstant(value: string): boolean {
  const m = INSTANT.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as number[];
  if (year === undefined || year < 1970 || month === undefined || month < 1 || month > 12) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return (
    (day ?? 0) >= 1 && (day ?? 0) <= days && (hour ?? 24) < 24 && (minute ?? 60) < 60 && (second ?? 60) < 60
  );
}

/** An instant as the API writes it (`toISOString`: UTC, milliseconds), between 1970 and 9999. */
export const instant = z
  .string()
  .refine(isInstant, 'must be a UTC date-time like 2026-03-02T12:00:00.000Z, between 1970 and 9999');

/** A calendar date `YYYY-MM-DD` between 1970 and 9999. */
export const isoDate = z
  .string()
  .refine(
    (value) => isIsoDate(value) && value >= '1970-01-01',
    'must be a calendar date like 2026-03-02, between 1970 and 9999',
  );

/** Milliseconds since the epoch, within the instants a row may hold. */
export const epochMs = z.number().int().min(EARLIEST_MS).max(LATEST_MS);

/** Money: a non-negative decimal string with exactly 2 places and at most 15 integer digits. */
export const money = z
  .string()
  .regex(/^(0|[1-9]\d{0,14})\.\d{2}$/, 'must be an amount with 2 decimal places, like "1000.00"');

/** The insertion counter: a whole number the next counter value stays exact above. */
export const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A whole number within `min`..`max`. */
export function count(min: number, max: number) {
  return z.number().int().min(min).max(max);
}

/** The id of the partner that owns a row. */
export const partnerId = text(300, 1);

/** The deepest nesting of free JSON inside a row (an event's data, a job's payload). */
const MAX_JSON_NESTING = 16;

function nesting(value: unknown, depth: number): number {
  if (value === null || typeof value !== 'object') return depth;
  let deepest = depth + 1;
  for (const item of Object.values(value)) deepest = Math.max(deepest, nesting(item, depth + 1));
  return deepest;
}

/** A key of free JSON: text, and never `__proto__` (it would set an object's prototype). */
const jsonKey = text(200).refine((key) => key !== '__proto__', 'must not be __proto__');

/** Any JSON value whose strings and keys follow the text rule and whose numbers are finite. */
export const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    text(1024 * 1024),
    z.number().refine(Number.isFinite, 'must be a finite number'),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(jsonKey, jsonValue),
  ]),
);

/** A JSON object (an event's data, a job's payload), nested at most 16 deep. */
export const jsonObject: z.ZodType<JsonObject> = z
  .record(jsonKey, jsonValue)
  .refine((value) => nesting(value, 0) <= MAX_JSON_NESTING, `must nest at most ${MAX_JSON_NESTING} deep`);
