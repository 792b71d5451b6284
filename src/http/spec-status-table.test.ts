import { describe, expect, it } from 'vitest';
import { ApiError } from '../domain/errors.js';
import { fitToSpecTable, SPEC_STATUS_TABLE, specTableRow } from './spec-status-table.js';

const refusal = new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 characters.', {
  param: 'Idempotency-Key',
  errors: [{ param: 'Idempotency-Key', detail: 'must be 1 to 255 characters' }],
});

describe("the spec's status table", () => {
  it('finds the row of a request path (ids, a trailing slash), and none outside the table', () => {
    expect(specTableRow('GET', '/v3/customers/cust_1')?.path).toBe('/customers/{customer_id}');
    expect(specTableRow('GET', '/v3/customers/cust_1/')?.path).toBe('/customers/{customer_id}');
    expect(specTableRow('POST', '/v3/customers/cust_1/biometrics')?.path).toBe(
      '/customers/{customer_id}/biometrics',
    );
    expect(specTableRow('GET', '/v3/credit-offers')?.statuses).toEqual([400, 401, 404, 429, 500]);
    expect(specTableRow('PATCH', '/v3/customers/cust_1')).toBeUndefined();
    expect(specTableRow('GET', '/v3/customers/cust_1/credit-offers')).toBeUndefined();
    expect(specTableRow('GET', '/v3/loans/ln_1')).toBeUndefined();
    expect(SPEC_STATUS_TABLE).toHaveLength(7);
  });

  it('keeps an error whose status the row has, and any error outside the table', () => {
    expect(fitToSpecTable('POST', '/v3/customers', refusal)).toBe(refusal);
    expect(fitToSpecTable('PATCH', '/v3/customers/cust_1', refusal)).toBe(refusal);
  });

  it('answers a 4xx the row lacks with 400, else 422, else 404, keeping code, detail and param', () => {
    const biometrics = fitToSpecTable('POST', '/v3/customers/cust_1/biometrics', refusal);
    expect(biometrics).toMatchObject({
      status: 422,
      code: 'validation_failed',
      message: refusal.message,
      param: 'Idempotency-Key',
      errors: refusal.errors,
    });
    expect(fitToSpecTable('GET', '/v3/customers/cust_1', refusal).status).toBe(404);
    const tooLarge = new ApiError('payload_too_large', 'Request bodies are limited to 16 MiB.');
    expect(fitToSpecTable('POST', '/v3/customers', tooLarge).status).toBe(400);
  });

  it('answers a 5xx other than 500 with 500, its code and Retry-After kept', () => {
    const unavailable = new ApiError('instance_unavailable', 'The owner is unreachable.', {
      headers: { 'Retry-After': '1' },
    });
    expect(unavailable.status).toBe(503);
    for (const [method, path] of [
      ['GET', '/v3/customers/cust_1'],
      ['GET', '/v3/credit-offers'],
      ['POST', '/v3/credit-offers/co_1/simulations'],
    ] as const) {
      expect(fitToSpecTable(method, path, unavailable)).toMatchObject({
        status: 500,
        code: 'instance_unavailable',
        headers: { 'Retry-After': '1' },
      });
    }
    expect(fitToSpecTable('GET', '/v3/loans/ln_1', unavailable).status).toBe(503);
  });
});
