import { describe, expect, it } from 'vitest';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';

describe('POST /v3/sandbox/reset', () => {
  it("wipes the partner's data and idempotency keys, keeps its credentials, restarts its clock", async () => {
    const sandbox = createTestSandbox();
    const other = await newPartnerToken(sandbox);
    const engine = sandbox.deps.engine;
    engine.emit('ptn_default', engine.clock('ptn_default'), 'customer.created', { id: 'cust_x' });
    engine.emit(other.id, engine.clock(other.id), 'customer.created', { id: 'cust_y' });
    const first = await sandbox.request('POST', '/v3/auth/credentials', {
      body: { name: 'a' },
      headers: { 'Idempotency-Key': 'k' },
    });
    const firstBody = (await first.json()) as { client_id: string };
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '10d' } });
    sandbox.realTime.tick(5000);

    const reset = await sandbox.json<{ deleted: number; clock: { now: string; frozen: boolean } }>(
      'POST',
      '/v3/sandbox/reset',
    );
    expect(reset.status).toBe(200);
    expect(reset.body.deleted).toBe(2); // one event and one idempotency entry
    expect(reset.body.clock).toEqual({ now: '2026-03-02T12:00:05.000Z', frozen: true });

    const events = await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/events');
    expect(events.body.data).toEqual([]);
    const again = await sandbox.request('POST', '/v3/auth/credentials', {
      body: { name: 'a' },
      headers: { 'Idempotency-Key': 'k' },
    });
    expect(again.headers.get('Idempotent-Replayed')).toBeNull();
    expect(((await again.json()) as { client_id: string }).client_id).not.toBe(firstBody.client_id);
    const credentials = await sandbox.json<{ data: unknown[] }>('GET', '/v3/auth/credentials');
    expect(credentials.body.data).toHaveLength(3);

    // The other partner is untouched.
    const theirs = await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/events', {
      token: other.token,
    });
    expect(theirs.body.data).toHaveLength(1);
  });
});
