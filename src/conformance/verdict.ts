// How a check says what it found: it returns (pass), throws `Departure` (fail: what the spec
// expects, what came back, and the answer that showed it) or `Skipped` (with the reason).
import { isDeepStrictEqual } from 'node:util';
import type { Answer } from './wire.js';

/** The target departs from the spec. */
export class Departure extends Error {
  constructor(
    message: string,
    readonly expected?: string,
    readonly actual?: string,
    readonly answer?: Answer,
  ) {
    super(message);
    this.name = 'Departure';
  }
}

/** The check could not run (the target never made a move, the mode lacks a control). */
export class Skipped extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Skipped';
  }
}

export function fail(message: string, expected?: unknown, actual?: unknown, answer?: Answer): never {
  throw new Departure(message, show(expected), show(actual), answer);
}

export function skip(reason: string): never {
  throw new Skipped(reason);
}

/** A short text for a value in a report (strings as they are, the rest as JSON, cut at 2,000). */
export function show(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** `answer.status` is one of `statuses`. */
export function expectStatus(answer: Answer, statuses: number | readonly number[], what: string): void {
  const allowed = typeof statuses === 'number' ? [statuses] : statuses;
  if (!allowed.includes(answer.status)) {
    fail(
      `${what}: ${answer.method} ${answer.path} answered ${answer.status}`,
      allowed.join(' or '),
      `${answer.status} ${show(answer.body) ?? ''}`.trim(),
      answer,
    );
  }
}

/** A 2xx answer. */
export function expectSuccess(answer: Answer, what: string): void {
  if (answer.status < 200 || answer.status > 299) {
    fail(
      `${what}: ${answer.method} ${answer.path} answered ${answer.status}`,
      '2xx',
      `${answer.status} ${show(answer.body) ?? ''}`.trim(),
      answer,
    );
  }
}

/** A 4xx answer (the spec names no single status for this case). */
export function expectClientError(answer: Answer, what: string): void {
  if (answer.status < 400 || answer.status > 499) {
    fail(
      `${what}: ${answer.method} ${answer.path} answered ${answer.status}`,
      '4xx',
      `${answer.status} ${show(answer.body) ?? ''}`.trim(),
      answer,
    );
  }
}

export function expectEqual(actual: unknown, expected: unknown, what: string, answer?: Answer): void {
  if (!isDeepStrictEqual(actual, expected)) fail(what, expected, actual, answer);
}

export function expectTrue(
  condition: boolean,
  what: string,
  expected?: unknown,
  actual?: unknown,
  answer?: Answer,
): asserts condition {
  if (!condition) fail(what, expected, actual, answer);
}

/** The answer's JSON body as an object (fails when it is not one). */
export function objectBody(answer: Answer, what: string): Record<string, unknown> {
  const body = answer.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    fail(`${what}: the body is not a JSON object`, 'a JSON object', answer.text.slice(0, 200), answer);
  }
  return body as Record<string, unknown>;
}

/** A string field of a body (fails when absent or not a string). */
export function stringField(
  body: Record<string, unknown>,
  field: string,
  what: string,
  answer?: Answer,
): string {
  const value = body[field];
  if (typeof value !== 'string') fail(`${what}: \`${field}\` is not a string`, 'a string', value, answer);
  return value;
}
