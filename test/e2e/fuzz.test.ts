import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../support/sandbox.js';

interface Operation {
  method: string;
  path: string;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'];

/** Every documented operation, read from the served OpenAPI document itself. */
async function operations(sandbox: ReturnType<typeof createTestSandbox>): Promise<Operation[]> {
  const doc = (await (await sandbox.app.request('/v3/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      // Document paths are relative to the server URL, which ends in /v3.
      .map((method) => ({ method: method.toUpperCase(), path: `/v3${path}` })),
  );
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v)),
  fc
    .dictionary(
      fc.constantFrom(
        'name',
        'by',
        'to',
        'cpf',
        'amount',
        'requested_amount',
        'installment_count',
        'url',
        'events',
        'status',
        'type',
        'message',
        'outcome',
        'stage',
        'params',
      ),
      jsonValue,
    )
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
);
const segment = fc.oneof(
  fc.constant('x'),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
);
const query = fc
  .dictionary(
    fc.constantFrom('limit', 'starting_after', 'order', 'sort', 'status', 'type', 'cpf'),
    fc.string({ maxLength: 8 }),
  )
  .map((q) => new URLSearchParams(q).toString());

describe('bad input never yields a 5xx', () => {
  it('on any documented operation with random bodies, path segments and query strings', async () => {
    const sandbox = createTestSandbox();
    const ops = await operations(sandbox);
    expect(ops.length).toBeGreaterThan(5);
    const token = await sandbox.token();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ops), body, segment, query, async (op, text, id, qs) => {
        const path = op.path.replace(/\{[^}]+\}/g, id);
        const res = await sandbox.app.request(`${path}?${qs}`, {
          method: op.method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: op.method === 'GET' || op.method === 'DELETE' ? undefined : text,
        });
        if (res.status >= 500)
          throw new Error(`${op.method} ${path}?${qs} ${text} -> ${res.status} ${await res.text()}`);
        if (res.status >= 400) expect(res.headers.get('content-type')).toBe('application/problem+json');
      }),
      { numRuns: 400 },
    );
  });
});
