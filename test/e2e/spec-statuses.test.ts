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
