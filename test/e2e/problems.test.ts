import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/domain/errors.js';
import { createTestSandbox } from '../support/sandbox.js';

const PROBLEM_KEYS = ['type', 'title', 'status', 'detail'];

async function expectProblem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  for (const key of PROBLEM_KEYS) expect(body).toHaveProperty(key);
  expect(body).toMatchObject({ status, code, type: `http://sandbox.test/problems/${code}` });
  expect(typeof body.detail).toBe('string');
  return body;
}

describe('problem+json for every error class', () => {
  it('400 malformed JSON', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.request('POST', '/v3/auth/credentials', { body: '{"name": ' });
    await expectProblem(res, 400, 'malformed_json');
  });

  it('400 schema violations list every field with its param', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.request('POST', '/v3/sandbox/clock/advance', { body: { by: 'soon' } });
    const body = await expectProblem(res, 400, 'validation_failed');
    expect(body.param).toBe('by');
    expect(body.errors).toEqual([expect.objectContaining({ param: 'by' })]);

    const wrongType = await sandbox.request('POST', '/v3/auth/credentials', { body: { name: 42 } });
    expect((await expectProblem(wrongType, 400, 'validation_failed')).param).toBe('name');

    const notObject = await sandbox.request('POST', '/v3/auth/credentials', { body: '[1,2]' });
    await expectProblem(notObject, 400, 'validation_failed');
  });

  it('400 unknown enum value', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.request('POST', '/v3/sandbox/partners', { body: { clock: 'sideways' } });
    expect((await expectProblem(res, 400, 'validation_failed')).param).toBe('clock');
  });

  it.each([
    ['0', 'limit'],
    ['101', 'limit'],
    ['abc', 'limit'],
    ['2.5', 'limit'],
  ])('400 for limit=%s', async (value, param) => {
    const sandbox = createTestSandbox();
    const res = await sandbox.request('GET', `/v3/auth/credentials?limit=${value}`);
    expect((await expectProblem(res, 400, 'validation_failed')).param).toBe(param);
  });

  it('400 for a cursor that is not an item of the list', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.request('GET', '/v3/auth/credentials?starting_after=cid_nope');
    expect((await expectProblem(res, 400, 'invalid_cursor')).param).toBe('starting_after');
  });

  it('401, 404 route, 404 resource, 405 with Allow', async () => {
    const sandbox = createTestSandbox();
    await expectProblem(
      await sandbox.request('GET', '/v3/sandbox/clock', { token: null }),
      401,
      'authentication_required',
    );
    await expectProblem(await sandbox.request('GET', '/v3/nothing-here'), 404, 'route_not_found');
    await expectProblem(
      await sandbox.request('DELETE', '/v3/auth/credentials/cid_x'),
      404,
      'resource_not_found',
    );
    const res = await sandbox.request('PUT', '/v3/auth/credentials');
    await expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('Allow')).toBe('GET, POST');
  });

  it('413 for a body over the limit', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.request('POST', '/v3/auth/credentials', {
      body: JSON.stringify({ name: 'x'.repeat(17 * 1024 * 1024) }),
    });
    await expectProblem(res, 413, 'payload_too_large');
  });

  it('422 for a rule: the clock never moves backwards', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.request('POST', '/v3/sandbox/clock/advance', {
      body: { to: '2020-01-01T00:00:00Z' },
    });
    expect((await expectProblem(res, 422, 'clock_backwards')).param).toBe('to');
  });

  it('500 for an unexpected exception, logged, and the process keeps serving', async () => {
    const sandbox = createTestSandbox();
    const logged: unknown[] = [];
    sandbox.deps.log.error = (_message, error) => logged.push(error);
    sandbox.app.get('/v3/explode', () => {
      throw new Error('kaboom');
    });
    const res = await sandbox.request('GET', '/v3/explode');
    const body = await expectProblem(res, 500, 'internal_error');
    expect(JSON.stringify(body)).not.toContain('kaboom');
    expect(logged).toHaveLength(1);
    expect((await sandbox.request('GET', '/v3/sandbox/clock')).status).toBe(200);
  });

  it('serves a page for every problem type', async () => {
    const sandbox = createTestSandbox();
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      const res = await sandbox.app.request(`/problems/${code}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(entry.title);
      expect(html).toContain(`HTTP ${entry.status}`);
    }
  });
});
