import fc from 'fast-check';
import { expect } from 'vitest';
import { generateCpf } from '../../src/finance/cpf.js';

/**
 * The bad-input suite, shared by both storage modes: in memory (`npm test`) and `--database` on
 * embedded PostgreSQL (`npm run test:postgres`). Each case must answer a 4xx problem+json, and
 * after each one a normal write by ANOTHER partner must still succeed: one bad request may never
 * break the sandbox for everybody.
 */

/** Sends one raw request (the in-memory app or a real server). */
export type Send = (path: string, init: RequestInit) => Promise<Response>;

export interface BadInputTarget {
  send: Send;
  /** Bearer token of the partner sending bad input. */
  token: string;
  /** `Authorization: Basic …` of the same partner (token requests). */
  basic: string;
  /** Bearer token of another partner, whose normal writes must keep working. */
  otherToken: string;
  /** `Authorization: Basic …` of the other partner. */
  otherBasic: string;
}

export interface BadInputCase {
  name: string;
  method: string;
  path: string;
  contentType?: string;
  body?: string | Buffer;
  /** Basic auth instead of the bearer token (the token endpoint). */
  basic?: boolean;
  /** The problem `code` expected, and `errors[0].code` when the refusal names a field. */
  code?: string;
  fieldCode?: string;
}

const MIB = 1024 * 1024;
const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}${close.repeat(depth)}`;
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

export function badInputCases(): BadInputCase[] {
  const customer = (body: string | Buffer, contentType = 'application/json'): Omit<BadInputCase, 'name'> => ({
    method: 'POST',
    path: '/v3/customers',
    contentType,
    body,
  });
  return [
    {
      // An id that cannot exist is a 404 (GET /customers/{id} has no 400 in the spec's table).
      name: 'NUL in the path (GET)',
      method: 'GET',
      path: '/v3/customers/%00',
      code: 'resource_not_found',
    },
    {
      name: 'NUL in the path (PATCH)',
      ...customer('{"name":"x"}'),
      method: 'PATCH',
      path: '/v3/customers/a%00b',
      code: 'resource_not_found',
    },
    {
      name: 'NUL in a query value',
      method: 'GET',
      path: '/v3/customers?status=%00',
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    {
      name: 'NUL in a query key',
      method: 'GET',
      path: '/v3/sandbox/requests?a%00=1',
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    {
      name: 'NUL in a body string',
      ...customer('{"cpf":"529.982.247-25","name":"a\\u0000b"}'),
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    {
      name: 'NUL in an unknown body field',
      ...customer('{"cpf":"x","zz":"\\u0000"}'),
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    {
      name: 'NUL in a body key',
      ...customer('{"cpf":"529.982.247-25","z\\u0000z":"1"}'),
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    {
      name: 'NUL in a form field (token endpoint)',
      method: 'POST',
      path: '/v3/auth/token',
      contentType: 'application/x-www-form-urlencoded',
      body: 'grant_type=client_credentials%00',
      basic: true,
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    {
      name: 'invalid UTF-8',
      ...customer(bytes('{"cpf":"529.982.247-25","name":"Jo', [0xc3, 0x28], 'o"}')),
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    {
      name: 'a lone surrogate',
      ...customer('{"cpf":"529.982.247-25","name":"\\ud800"}'),
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    { name: 'arrays nested 10,000 deep', ...customer(nested(10_000, '[', ']')), code: 'json_too_deep' },
    { name: 'objects nested 10,000 deep', ...customer(nested(10_000, '{"a":', '}')), code: 'json_too_deep' },
    { name: 'arrays nested 100,000 deep', ...customer(nested(100_000, '[', ']')), code: 'json_too_deep' },
    {
      name: 'objects nested 100,000 deep',
      ...customer(nested(100_000, '{"a":', '}')),
      code: 'json_too_deep',
    },
    {
      name: 'a 15 MiB name',
      ...customer(`{"cpf":"529.982.247-25","name":"${'a'.repeat(15 * MIB)}"}`),
    },
    { name: 'a 15 MiB unknown field', ...customer(`{"cpf":"x","zz":"${'b'.repeat(15 * MIB)}"}`) },
    { name: 'a 17 MiB body', ...customer(`{"cpf":"x","zz":"${'c'.repeat(17 * MIB)}"}`) },
    {
      name: 'charset=utf-16',
      ...customer('{"cpf":"529.982.247-25"}', 'application/json; charset=utf-16'),
      code: 'unsupported_charset',
    },
    {
      name: 'charset=iso-8859-1',
      ...customer('{"cpf":"529.982.247-25"}', 'application/json; charset=iso-8859-1'),
      code: 'unsupported_charset',
    },
    {
      name: 'charset=utf-16 on a form',
      method: 'POST',
      path: '/v3/auth/token',
      contentType: 'application/x-www-form-urlencoded; charset=utf-16',
      body: 'grant_type=client_credentials',
      basic: true,
      code: 'unsupported_charset',
    },
    {
      name: 'a UTF-8 byte-order mark',
      ...customer(bytes([0xef, 0xbb, 0xbf], '{"cpf":"529.982.247-25"}')),
      code: 'validation_failed',
      fieldCode: 'invalid_text',
    },
    { name: 'a UTF-16 byte-order mark', ...customer(bytes([0xff, 0xfe], '{"cpf":"x"}')) },
  ];
}

/** Sends one case as the first partner. */
export function sendCase(target: BadInputTarget, c: BadInputCase): Promise<Response> {
  const headers: Record<string, string> = {
    authorization: c.basic ? target.basic : `Bearer ${target.token}`,
  };
  if (c.contentType) headers['content-type'] = c.contentType;
  return target.send(c.path, { method: c.method, headers, body: c.body });
}

/** A request that fails outright (its connection closed or reset) names what it was sending. */
function named<T>(label: string, request: Promise<T>): Promise<T> {
  return request.catch((error: Error) => {
    throw new Error(`${label}: ${error.message}`, { cause: error });
  });
}

/** Asserts a 4xx problem document. */
export async function expectProblem(res: Response, label: string, c?: BadInputCase): Promise<void> {
  const text = await res.text();
  if (c?.code) expect(JSON.parse(text).code, `${label}: ${text.slice(0, 300)}`).toBe(c.code);
  if (c?.fieldCode) expect(JSON.parse(text).errors?.[0]?.code, label).toBe(c.fieldCode);
  expect(res.status, `${label}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.headers.get('content-type'), label).toBe('application/problem+json');
  expect(JSON.parse(text), label).toMatchObject({ status: res.status, code: expect.any(String) });
}

let written = 0;

/**
 * A normal write by the other partner (a token, then a customer with a fresh CPF), which must
 * succeed after any bad request of the first.
 */
export async function expectOtherPartnerWrites(target: BadInputTarget, label: string): Promise<void> {
  const token = await named(
    `token after ${label}`,
    target.send('/v3/auth/token', { method: 'POST', headers: { authorization: target.otherBasic } }),
  );
  expect(token.status, `token after ${label}: ${await token.text()}`).toBe(200);
  written++;
  const cpf = generateCpf(String(300_000_000 + written + (process.pid % 1000) * 1000));
  const created = await named(
    `write after ${label}`,
    target.send('/v3/customers', {
      method: 'POST',
      headers: { authorization: `Bearer ${target.otherToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf, name: `After ${label}`.slice(0, 80) }),
    }),
  );
  expect(created.status, `write after ${label}: ${await created.text()}`).toBe(201);
}

/** Every case, each followed by another partner's write. */
export async function runBadInputSuite(target: BadInputTarget): Promise<void> {
  for (const c of badInputCases()) {
    await expectProblem(await named(c.name, sendCase(target, c)), c.name, c);
    await expectOtherPartnerWrites(target, c.name);
  }
}

interface Operation {
  method: string;
  path: string;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'];

/** Every documented operation, read from the served OpenAPI document itself. */
export async function documentedOperations(send: Send): Promise<Operation[]> {
  const doc = (await (await send('/v3/openapi.json', {})).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((method) => ({ method: method.toUpperCase(), path: `/v3${path}` })),
  );
}

// Hostile parts: every kind of bad text the suite above sends, in random places and mixes.
const hostileString = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ufeff', 'svc_cs_test_x'),
  fc.string({ maxLength: 12, unit: 'binary' }),
);
const hostileJson = fc.oneof(
  fc
    .dictionary(
      fc.oneof(fc.constantFrom('cpf', 'name', 'url', 'events', 'by'), hostileString),
      hostileString,
      {
        maxKeys: 4,
      },
    )
    .map((v) => JSON.stringify(v)),
  fc.integer({ min: 60, max: 20_000 }).map((depth) => nested(depth, '[', ']')),
  fc.integer({ min: 60, max: 20_000 }).map((depth) => nested(depth, '{"a":', '}')),
  fc.integer({ min: 1, max: 300_000 }).map((n) => `{"name":"${'n'.repeat(n)}"}`),
);
const hostileBody = fc.oneof(
  hostileJson.map((text) => Buffer.from(text)),
  hostileJson.map((text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
);
const hostileType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'text/plain',
);
const hostileSegment = fc.oneof(
  fc.constantFrom('%00', 'a%00b', '%C3%28', '%FF', '%ED%A0%80', 'svc_at_x', '..', '%2e%2e'),
  fc.string({ minLength: 1, maxLength: 12, unit: 'binary' }).map(encodeURIComponent),
);
const hostileQuery = fc
  .dictionary(
    fc.oneof(fc.constantFrom('limit', 'starting_after', 'status', 'type', 'path', 'method'), hostileString),
    hostileString,
    { maxKeys: 3 },
  )
  .map((q) => new URLSearchParams(q).toString());

/**
 * fast-check over every documented operation with hostile bodies, content types, path segments
 * and queries: no answer may be a 5xx, every 4xx is a problem document, and the other partner's
 * writes still succeed afterwards.
 */
export async function runHostileProperty(target: BadInputTarget, numRuns: number): Promise<void> {
  const ops = await documentedOperations(target.send);
  expect(ops.length).toBeGreaterThan(20);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...ops),
      hostileBody,
      hostileType,
      hostileSegment,
      hostileQuery,
      async (op, body, type, segment, query) => {
        const path = op.path.replace(/\{[^}]+\}/g, segment);
        const withBody = op.method !== 'GET' && op.method !== 'DELETE';
        const res = await target.send(`${path}?${query}`, {
          method: op.method,
          headers: {
            authorization: `Bearer ${target.token}`,
            ...(withBody ? { 'content-type': type } : {}),
          },
          body: withBody ? body : undefined,
        });
        const text = await res.text();
        if (res.status >= 500) {
          throw new Error(`${op.method} ${path}?${query} -> ${res.status} ${text.slice(0, 500)}`);
        }
        if (res.status >= 400) expect(res.headers.get('content-type')).toBe('application/problem+json');
      },
    ),
    { numRuns, seed: 20261125 },
  );
  await expectOtherPartnerWrites(target, 'the hostile property run');
}
