import { describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
}
type Operations = Record<string, Record<string, { parameters?: Parameter[] }>>;

/** Every GET of the served document with an integer query parameter, path params filled in. */
async function integerQueryOperations(sandbox: TestSandbox): Promise<{ path: string; param: string }[]> {
  const doc = (await sandbox.json<{ paths: Operations }>('GET', '/v3/openapi.json')).body;
  const found: { path: string; param: string }[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    const get = operations.get;
    for (const parameter of get?.parameters ?? []) {
      if (parameter.in !== 'query' || parameter.schema?.type !== 'integer') continue;
      // Any id: the query is checked before the operation looks the id up.
      const path = `/v3${template}`.replace(/\{[^}]+\}/g, 'x_0123456789abcdef0123456789abcdef');
      found.push({ path, param: parameter.name });
    }
  }
  return found;
}

/**
 * The spec: `limit` (integer 1..100, default 25). A query value is an integer when it is written
 * in decimal digits; exponents, fractions, signs, spaces and hex are not (production reading the
 * spec to the letter refuses them, so the sandbox does).
 */
describe('integer query parameters take decimal digits only', () => {
  it('finds limit on every list endpoint of the document', async () => {
    const operations = await integerQueryOperations(createTestSandbox());
    expect(operations.length).toBeGreaterThanOrEqual(10);
    expect(new Set(operations.map((o) => o.param))).toEqual(new Set(['limit']));
  });

  it.each([
    '1e1',
    '10.0',
    '+5',
    '-5',
    ' 5',
    '5 ',
    '0x10',
    '1_0',
    '１０',
    '',
    '10abc',
    '99999999999999999999',
  ])('answers 400 naming the parameter for %j on every list endpoint', async (value) => {
    const sandbox = createTestSandbox();
    for (const { path, param } of await integerQueryOperations(sandbox)) {
      const res = await sandbox.json('GET', `${path}?${param}=${encodeURIComponent(value)}`);
      expect(res.status, `${path} ${param}=${value}`).toBe(400);
      expect(res.body, path).toMatchObject({ code: 'validation_failed', param });
    }
  });

  it('takes 1, 100 and a leading zero (010 is ten) on every list endpoint', async () => {
    const sandbox = createTestSandbox();
    for (const { path, param } of await integerQueryOperations(sandbox)) {
      for (const value of ['1', '100', '010']) {
        const res = await sandbox.json('GET', `${path}?${param}=${value}`);
        expect(res.status, `${path} ${param}=${value}`).not.toBe(400);
      }
    }
  });
});
