import { beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../support/customers.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  template: string;
  /** The statuses the document declares for it (for the spec's table rows: exactly the row). */
  statuses: Set<number>;
  hasBody: boolean;
  queryInteger: string | undefined;
  idempotent: boolean;
}

/** Every operation of the served document with the statuses it declares. */
async function operations(sandbox: TestSandbox): Promise<Operation[]> {
  const doc = (await sandbox.json<{ paths: Record<string, Record<string, Json>> }>('GET', '/v3/openapi.json'))
    .body;
  const found: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = (operation.parameters ?? []) as { name: string; in: string; schema?: Json }[];
      found.push({
        method: method.toUpperCase(),
        template: `/v3${template}`,
        statuses: new Set(Object.keys(operation.responses as Json).map(Number)),
        hasBody: operation.requestBody !== undefined,
        queryInteger: parameters.find((p) => p.in === 'query' && p.schema?.type === 'integer')?.name,
        idempotent: parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
      });
    }
  }
  return found;
}

interface Fault {
  name: string;
  applies(op: Operation): boolean;
  request(op: Operation, path: (segment?: string) => string): { path: string; init: RequestInit };
}

const hasId = (op: Operation) => op.template.includes('{');
const writes = (op: Operation) => op.method !== 'GET' && op.method !== 'DELETE';
const json = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  body,
  headers: { 'content-type': 'application/json', ...headers },
});
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const OVER_LIMIT = Buffer.alloc(16 * 1024 * 1024 + 1, 0x20);

/** The input faults a client can send, each where it applies. */
const FAULTS: Fault[] = [
  {
    name: 'an id holding NUL (%00)',
    applies: hasId,
    request: (_op, path) => ({ path: path('a%00b'), init: {} }),
  },
  {
    name: 'an id of invalid UTF-8 (%FF)',
    applies: hasId,
    request: (_op, path) => ({ path: path('%FF'), init: {} }),
  },
  {
    name: 'a lone surrogate in the id',
    applies: hasId,
    request: (_op, path) => ({ path: path('%ED%A0%80'), init: {} }),
  },
  {
    name: 'an id of 5,000 characters',
    applies: hasId,
    request: (_op, path) => ({ path: path('x'.repeat(5000)), init: {} }),
  },
  { name: 'an unknown id', applies: hasId, request: (_op, path) => ({ path: path('zz_unknown'), init: {} }) },
  {
    name: 'NUL in the query',
    applies: () => true,
    request: (_op, path) => ({ path: `${path()}?q=%00`, init: {} }),
  },
  {
    name: 'a non-integer page size (1e1)',
    applies: (op) => op.queryInteger !== undefined,
    request: (op, path) => ({ path: `${path()}?${op.queryInteger}=1e1`, init: {} }),
  },
  {
    name: 'an Idempotency-Key of 300 characters',
    applies: (op) => op.idempotent,
    request: (_op, path) => ({ path: path(), init: json('{}', { 'idempotency-key': 'k'.repeat(300) }) }),
  },
  {
    name: 'a body in charset latin1',
    applies: writes,
    request: (_op, path) => ({
      path: path(),
      init: json('{}', { 'content-type': 'application/json; charset=latin1' }),
    }),
  },
  {
    name: 'a text/plain body',
    applies: writes,
    request: (_op, path) => ({ path: path(), init: json('{}', { 'content-type': 'text/plain' }) }),
  },
  {
    name: 'malformed JSON',
    applies: writes,
    request: (_op, path) => ({ path: path(), init: json('{"a":') }),
  },
  {
    name: 'JSON nested 5,000 deep',
    applies: writes,
    request: (_op, path) => ({ path: path(), init: json(DEEP) }),
  },
  {
    name: 'NUL in a JSON string',
    applies: writes,
    request: (_op, path) => ({ path: path(), init: json('{"name":"a\\u0000b"}') }),
  },
  {
    name: 'a lone surrogate in a JSON string',
    applies: writes,
    request: (_op, path) => ({ path: path(), init: json('{"name":"\\ud800"}') }),
  },
  {
    name: 'invalid UTF-8 bytes in the body',
    applies: writes,
    request: (_op, path) => ({
      path: path(),
      init: {
        body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
        headers: { 'content-type': 'application/json' },
      },
    }),
  },
  {
    name: 'a body over 16 MiB',
    applies: writes,
    request: (_op, path) => ({
      path: path(),
      init: { body: OVER_LIMIT, headers: { 'content-type': 'application/json' } },
    }),
  },
  {
    name: 'a JSON array body',
    applies: writes,
    request: (_op, path) => ({ path: path(), init: json('[1,2]') }),
  },
  {
    name: 'a byte-order mark',
    applies: writes,
    request: (_op, path) => ({ path: path(), init: json('\ufeff{}') }),
  },
  {
    name: 'no token',
    applies: (op) => op.template !== '/v3/auth/token',
    request: (_op, path) => ({ path: path(), init: { headers: { authorization: '' } } }),
  },
];

/**
 * Every operation × every input fault: the answer's status is one the operation's table has —
 * the spec's "Status codes by endpoint" for its seven endpoints (the document lists exactly those),
 * the document's declared responses for the others — and an error is application/problem+json.
 */
describe("every answer to a bad input has a status of its operation's table", () => {
  let sandbox: TestSandbox;
  let customerId: string;
  let ops: Operation[];
  beforeAll(async () => {
    sandbox = createTestSandbox();
    customerId = (await createCustomer(sandbox)).id;
    ops = await operations(sandbox);
  });

  it("reads every operation of the document, the seven of the spec's table with exactly its statuses", () => {
    expect(ops.length).toBeGreaterThan(40);
    const biometrics = ops.find((op) => op.template === '/v3/customers/{customer_id}/biometrics');
    expect([...(biometrics?.statuses ?? [])].sort()).toEqual([200, 401, 404, 409, 422, 429, 500]);
  });

  it.each(FAULTS.map((fault) => [fault.name, fault] as const))(
    '%s, on every operation it applies to',
    async (_name, fault) => {
      const outside: string[] = [];
      let sent = 0;
      for (const op of ops.filter((o) => fault.applies(o))) {
        // A real customer id where the fault is elsewhere, so the operation gets past the lookup.
        const path = (segment?: string) =>
          op.template.replace(
            /\{[^}]+\}/g,
            segment ?? (op.template.includes('{customer_id}') ? customerId : 'zz_x'),
          );
        const { path: target, init } = fault.request(op, path);
        const headers: Record<string, string> = {
          authorization: `Bearer ${await sandbox.token()}`,
          ...(init.headers as Record<string, string>),
        };
        if (headers.authorization === '') delete headers.authorization;
        const res = await sandbox.app.request(target, { method: op.method, ...init, headers });
        sent++;
        const label = `${op.method} ${op.template} with ${fault.name}`;
        if (!op.statuses.has(res.status)) {
          outside.push(`${label}: ${res.status} (table: ${[...op.statuses].join(', ')})`);
        }
        if (res.status >= 400) {
          expect(res.headers.get('content-type'), label).toBe('application/problem+json');
          expect(((await res.json()) as { status: number }).status, label).toBe(res.status);
        }
      }
      expect(sent).toBeGreaterThan(0);
      expect(outside).toEqual([]);
    },
  );
});
