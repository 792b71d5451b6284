import { describe, expect, it } from 'vitest';
import { createCustomer } from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const OVER_LIMIT = 'x'.repeat(17 * 1024 * 1024);

/**
 * The spec's "Status codes by endpoint" table: POST /customers answers 400, 401, 409, 422, 429,
 * 500; documents 400, 401, 404, 422, 429, 500; biometrics 401, 404, 409, 422, 429, 500;
 * simulations 400, 401, 404, 422, 429, 500. Refusals of the body as sent use those statuses.
 */
describe("the spec's status table: no 413 or 415 on its endpoints", () => {
  it('answers 400 body_too_large for a body over 16 MiB to POST /customers and to simulations', async () => {
    const sandbox = createTestSandbox();
    for (const path of ['/v3/customers', '/v3/credit-offers/co_unknown/simulations']) {
      const res = await sandbox.json('POST', path, { body: OVER_LIMIT });
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'body_too_large' });
    }
  });

  it('answers 400 unsupported_content_type for text/plain to POST /customers and to simulations', async () => {
    const sandbox = createTestSandbox();
    for (const path of ['/v3/customers', '/v3/credit-offers/co_unknown/simulations']) {
      const res = await sandbox.json('POST', path, {
        body: '{"cpf":"52998224725"}',
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 'unsupported_content_type', param: 'Content-Type' });
    }
  });

  it('answers 422 file_too_large for an upload body over 16 MiB, 422 request_too_large for biometrics', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const upload = await sandbox.json('POST', `/v3/customers/${customer.id}/documents`, {
      body: OVER_LIMIT,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(upload.status).toBe(422);
    expect(upload.body).toMatchObject({ code: 'file_too_large', param: 'file' });
    const biometrics = await sandbox.json('POST', `/v3/customers/${customer.id}/biometrics`, {
      body: OVER_LIMIT,
    });
    expect(biometrics.status).toBe(422);
    expect(biometrics.body).toMatchObject({ code: 'request_too_large' });
  });

  it('keeps 413 and 415 on endpoints outside the table', async () => {
    const sandbox = createTestSandbox();
    const big = await sandbox.json('POST', '/v3/webhooks/endpoints', { body: OVER_LIMIT });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'payload_too_large' });
    const text = await sandbox.json('POST', '/v3/webhooks/endpoints', {
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ code: 'unsupported_media_type' });
  });
});

describe("the spec's status table: refusals answer a status of the endpoint's row", () => {
  it('answers 404 resource_not_found for an id holding NUL on GET /customers/{id} and GET /credit-offers/{id}', async () => {
    const sandbox = createTestSandbox();
    for (const path of ['/v3/customers/cust_%00', '/v3/credit-offers/co%00x', '/v3/loans/%00']) {
      const res = await sandbox.json('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body, path).toMatchObject({ status: 404, code: 'resource_not_found', param: 'path' });
    }
  });

  it('answers 422 on POST /customers/{id}/biometrics (no 400 in its row) for a bad Idempotency-Key or charset', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const path = `/v3/customers/${customer.id}/biometrics`;
    const key = await sandbox.json('POST', path, { headers: { 'Idempotency-Key': 'k'.repeat(256) } });
    expect(key.status).toBe(422);
    expect(key.body).toMatchObject({ status: 422, code: 'validation_failed', param: 'Idempotency-Key' });
    const charset = await sandbox.json('POST', path, {
      body: '{}',
      headers: { 'content-type': 'application/json; charset=latin1' },
    });
    expect(charset.status).toBe(422);
    expect(charset.body).toMatchObject({ status: 422, code: 'unsupported_charset' });
    // The same refusals stay 400 where the row has 400.
    const onCustomers = await sandbox.json('POST', '/v3/customers', {
      body: '{}',
      headers: { 'content-type': 'application/json; charset=latin1' },
    });
    expect(onCustomers.status).toBe(400);
  });
});
