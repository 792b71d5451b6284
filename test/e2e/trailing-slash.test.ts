import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../support/sandbox.js';

describe('a trailing slash', () => {
  it('is served as the path without it, for reads and writes', async () => {
    const sandbox = createTestSandbox();
    const created = await sandbox.json<{ id: string }>('POST', '/v3/customers/', {
      body: { cpf: '529.982.247-25' },
      headers: { 'Idempotency-Key': 'slash' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v3/customers/${created.body.id}`);

    const list = await sandbox.json<{ data: { id: string }[] }>('GET', '/v3/customers/');
    expect(list.status).toBe(200);
    expect(list.body.data.map((c) => c.id)).toEqual([created.body.id]);
    const one = await sandbox.json<{ id: string }>('GET', `/v3/customers/${created.body.id}/`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(created.body.id);

    // The same key with and without the slash is the same operation.
    const replay = await sandbox.request('POST', '/v3/customers', {
      body: { cpf: '529.982.247-25' },
      headers: { 'Idempotency-Key': 'slash' },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('still answers 405 with Allow for a method the path does not take, and 404 for unknown paths', async () => {
    const sandbox = createTestSandbox();
    const wrongMethod = await sandbox.request('DELETE', '/v3/customers/');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('GET');
    const unknown = await sandbox.json('GET', '/v3/nothing-here/');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'route_not_found' });
  });
});
