import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCnpj } from '../../src/finance/cnpj.js';
import { generateCpf } from '../../src/finance/cpf.js';
import { createCustomer } from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const RUNS = 150;

const digits = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
/** Values a client might plausibly send in a field, valid or not. */
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  digits(9).map(generateCpf),
  digits(11),
  fc.string({ unit: fc.constantFrom(...'0123456789ABCZ'), minLength: 12, maxLength: 12 }).map(generateCnpj),
  fc.emailAddress(),
  fc.constantFrom('+5511987654321', '', ' ', '000.000.001-91', null, 'null', '__proto__'),
);
/** Objects with the fields of the customer API (and a few others) holding any of those values. */
const customerish = fc.dictionary(
  fc.constantFrom(
    'cpf',
    'cnpj',
    'name',
    'email',
    'phone',
    'trading_name',
    'external_id',
    'status',
    '__proto__',
    'kyc',
  ),
  fieldValue,
  { maxKeys: 7 },
);
/** Raw bodies: JSON of anything, customer-like objects, or arbitrary text. */
const rawBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  customerish.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
);

describe('garbage bodies never make the customer API fail (no 5xx)', () => {
  it('POST /v3/customers', async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.token();
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, async (body, type) => {
        const res = await sandbox.app.request('/v3/customers', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          body,
        });
        expect(res.status, `${type}: ${body}`).toBeLessThan(500);
        // The spec's status table for POST /customers: no 413 or 415.
        expect([200, 201, 400, 409, 422], `${type}: ${body}`).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
  });

  it('PATCH /v3/customers/{id}', async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.token();
    const { id } = await createCustomer(sandbox);
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, async (body, type) => {
        const res = await sandbox.app.request(`/v3/customers/${id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          body,
        });
        expect(res.status, `${type}: ${body}`).toBeLessThan(500);
        expect([200, 400, 409, 415, 422], `${type}: ${body}`).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /v3/customers/{id}/documents with random parts', async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.token();
    const { id } = await createCustomer(sandbox);
    const part = fc.oneof(
      fc.string({ maxLength: 30 }).map((s) => ({ kind: 'text' as const, s })),
      fc.uint8Array({ maxLength: 64 }).map((b) => ({ kind: 'file' as const, b })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('type', 'file', 'other'), part, { maxKeys: 3 }),
        async (fields) => {
          const form = new FormData();
          for (const [name, value] of Object.entries(fields)) {
            if (value.kind === 'text') form.append(name, value.s);
            else form.append(name, new File([value.b], 'x.bin'));
          }
          const res = await sandbox.app.request(`/v3/customers/${id}/documents`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
            body: form,
          });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
