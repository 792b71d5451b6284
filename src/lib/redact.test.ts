import { describe, expect, it } from 'vitest';
import {
  isSecretKey,
  redact,
  redactHeaders,
  redactJsonText,
  redactQuery,
  redactTarget,
  redactText,
} from './redact.js';

describe('redaction', () => {
  it('knows secret keys by name', () => {
    for (const key of [
      'authorization',
      'Authorization',
      'password',
      'secret',
      'client_secret',
      'previous_secret',
      'access_token',
      'refresh_token',
      'id_token',
      'tokenValue',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of ['token_type', 'name', 'cpf', 'secretary', 'idempotency_key']) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });

  it('redacts secret keys and secret-format values at any depth, sharing what has no secret', () => {
    const clean = { a: [1, { b: 'c' }] };
    expect(redact(clean)).toBe(clean);
    expect(
      redact({ x: [{ api_secret: 's', note: 'see svc_at_eyJ.abc-def' }], token_type: 'Bearer' }),
    ).toEqual({
      x: [{ api_secret: '[redacted]', note: 'see [redacted]' }],
      token_type: 'Bearer',
    });
  });

  it('is depth-bounded: no stack overflow at 100,000 levels', () => {
    let deep: unknown = 'svc_cs_x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => redact(deep)).not.toThrow();
  });

  it('redacts queries, targets and free text', () => {
    expect(redactQuery('client_id=cid&client_secret=svc_cs_test_1&limit=5')).toBe(
      'client_id=cid&client_secret=[redacted]&limit=5',
    );
    expect(redactQuery('access_token=abc&q=svc_at_xyz')).toBe('access_token=[redacted]&q=[redacted]');
    expect(redactQuery('limit=10')).toBe('limit=10');
    expect(redactTarget('/v3/customers/whsec_abc?password=p')).toBe(
      '/v3/customers/[redacted]?password=[redacted]',
    );
    expect(redactText('{"password": "p", "name": "n", "refresh_token":"r')).toBe(
      '{"password": "[redacted]", "name": "n", "refresh_token":"[redacted]',
    );
    expect(redactJsonText('{"secret":"whsec_1","id":"we_1"}')).toBe('{"secret":"[redacted]","id":"we_1"}');
    expect(redactJsonText('{"id":"cust_1"}')).toBe('{"id":"cust_1"}');
  });
});

describe('header redaction', () => {
  it('keeps the scheme of Authorization, replaces secret-named headers and secret-format values', () => {
    expect(
      redactHeaders({
        Authorization: 'Basic Y2lkOnN2Y19jc190ZXN0',
        'X-Api-Token': 'abc',
        'X-Client-Secret': 'abc',
        Cookie: 'session=1',
        'Idempotency-Key': 'key-svc_at_eyJ.x',
        'Content-Type': 'application/json',
      }),
    ).toEqual({
      authorization: 'Basic [redacted]',
      'x-api-token': '[redacted]',
      'x-client-secret': '[redacted]',
      cookie: '[redacted]',
      'idempotency-key': 'key-[redacted]',
      'content-type': 'application/json',
    });
  });
});
