import { describe, expect, it } from 'vitest';
import { MAX_LIFETIME_SECONDS } from '../../src/domain/partner-lifetime.js';
import { StorageHealth } from '../../src/store/storage-health.js';
import { PartnerSweeper } from '../../src/tenancy/sweeper.js';
import { holdingReceiver } from '../support/holding-receiver.js';
import { partnerClient } from '../support/partner-client.js';
import { type CreatedPartner, createPartner, populate, rowsOf } from '../support/partners.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

function clientOf(sandbox: TestSandbox, partner: CreatedPartner) {
  return partnerClient(
    (path, init) => sandbox.app.request(path, init),
    partner.client_id,
    partner.client_secret,
  );
}

async function problem(res: Promise<Response>): Promise<{ status: number; code: string; detail: string }> {
  const answer = await res;
  const body = (await answer.json()) as { code: string; detail: string };
  return { status: answer.status, code: body.code, detail: body.detail };
}

describe('partner lifetime', () => {
  it('answers expires_at for expires_in (real time), lists it, and extends it with PATCH', async () => {
    const sandbox = createTestSandbox();
    const partner = await createPartner(sandbox, { expires_in: 7200 });
    expect(partner.expires_at).toBe('2026-03-02T14:00:00.000Z');
    const forever = await createPartner(sandbox);
    expect(forever.expires_at).toBeNull();
    const listed = await sandbox.json<{ data: { id: string; expires_at: string | null }[] }>(
      'GET',
      '/v3/sandbox/partners',
    );
    expect(listed.body.data.map((p) => [p.id, p.expires_at])).toEqual([
      [forever.id, null],
      [partner.id, '2026-03-02T14:00:00.000Z'],
    ]);

    // Real time moves (the partner clock has nothing to do with it): the creator extends it.
    sandbox.realTime.tick(3_600_000);
    const extended = await sandbox.json<{ expires_at: string }>(
      'PATCH',
      `/v3/sandbox/partners/${partner.id}`,
      {
        body: { expires_in: 86_400 },
      },
    );
    expect(extended.status).toBe(200);
    expect(extended.body.expires_at).toBe('2026-03-03T13:00:00.000Z');
    // The partner itself may too.
    const own = await clientOf(sandbox, partner).json<{ expires_at: string }>(
      'PATCH',
      `/v3/sandbox/partners/${partner.id}`,
      { body: { expires_in: 60 } },
    );
    expect(own.body.expires_at).toBe('2026-03-02T13:01:00.000Z');
  });

  it('refuses bad lifetimes, strangers and the default partner', async () => {
    const sandbox = createTestSandbox();
    const partner = await createPartner(sandbox);
    const stranger = clientOf(sandbox, await createPartner(sandbox));
    for (const expires_in of [0, -5, 1.5, '60', MAX_LIFETIME_SECONDS + 1, null]) {
      const res = await sandbox.json('PATCH', `/v3/sandbox/partners/${partner.id}`, { body: { expires_in } });
      expect(res.status, String(expires_in)).toBe(400);
      const created = await sandbox.json('POST', '/v3/sandbox/partners', { body: { expires_in } });
      expect(created.status, String(expires_in)).toBe(400);
    }
    const extra = await sandbox.json('PATCH', `/v3/sandbox/partners/${partner.id}`, {
      body: { expires_in: 60, name: 'renamed' },
    });
    expect(extra.status).toBe(400);
    // Another partner's partner is not there for a stranger.
    for (const method of ['PATCH', 'DELETE']) {
      const res = await problem(
        stranger.request(method, `/v3/sandbox/partners/${partner.id}`, { body: { expires_in: 60 } }),
      );
      expect(res).toMatchObject({ status: 404, code: 'resource_not_found' });
    }
    expect(await problem(sandbox.request('DELETE', '/v3/sandbox/partners/ptn_default'))).toMatchObject({
      status: 403,
      code: 'partner_protected',
    });
    expect(
      await problem(
        sandbox.request('PATCH', '/v3/sandbox/partners/ptn_default', { body: { expires_in: 60 } }),
      ),
    ).toMatchObject({ status: 403, code: 'partner_protected' });
    // A malformed id is a clear 4xx, never a 500: it names nothing, like an id that does not exist.
    expect(await problem(sandbox.request('DELETE', '/v3/sandbox/partners/ptn_0000%00'))).toMatchObject({
      status: 404,
      code: 'resource_not_found',
    });
    expect((await sandbox.request('DELETE', `/v3/sandbox/partners/${'x'.repeat(100_000)}`)).status).toBe(404);
  });

  it('deletes a partner with all its rows at once: its credentials and tokens answer partner_deleted', async () => {
    const sandbox = createTestSandbox(
      {},
      { webhookSender: async () => ({ statusCode: 200, retryAfter: null, body: '' }) },
    );
    const partner = await createPartner(sandbox);
    const client = clientOf(sandbox, partner);
    await populate(client);
    const token = await client.token();
    const store = sandbox.deps.store;
    expect(Object.keys(rowsOf(store, partner.id)).sort()).toEqual(
      expect.arrayContaining([
        'credentials',
        'customers',
        'events',
        'fault_rules',
        'idempotency',
        'jobs',
        'partners',
        'requests',
        'snapshots',
        'webhook_deliveries',
        'webhook_endpoints',
      ]),
    );

    const deleted = await sandbox.request('DELETE', `/v3/sandbox/partners/${partner.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(rowsOf(store, partner.id)).toEqual({});
    expect(await problem(client.request('GET', '/v3/customers', { token }))).toMatchObject({
      status: 401,
      code: 'partner_deleted',
    });
    await expect(client.token()).rejects.toThrow(/401.*partner_deleted/);
    // Gone for its creator too, and nothing of it is listed.
    expect((await sandbox.json('DELETE', `/v3/sandbox/partners/${partner.id}`)).status).toBe(404);
    const listed = await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/partners');
    expect(listed.body.data).toEqual([]);
    // The default partner did not lose anything.
    expect((await sandbox.json('GET', '/v3/sandbox/clock')).status).toBe(200);
  });

  it('lets a partner delete itself', async () => {
    const sandbox = createTestSandbox();
    const partner = await createPartner(sandbox);
    const client = clientOf(sandbox, partner);
    const token = await client.token();
    expect((await client.request('DELETE', `/v3/sandbox/partners/${partner.id}`, { token })).status).toBe(
      204,
    );
    expect(await problem(client.request('GET', '/v3/sandbox/clock', { token }))).toMatchObject({
      code: 'partner_deleted',
    });
  });

  it('refuses an expired partner at once (partner_expired), and the sweep removes it on real time', async () => {
    const sandbox = createTestSandbox();
    const sweeper = new PartnerSweeper(sandbox.deps);
    const partner = await createPartner(sandbox, { expires_in: 60 });
    const client = clientOf(sandbox, partner);
    await populate(client);
    const token = await client.token();
    // The partner clock moving does nothing to a lifetime.
    expect(
      (await client.json('POST', '/v3/sandbox/clock/advance', { token, body: { by: '35d' } })).status,
    ).toBe(200);
    expect(await sweeper.sweep()).toBe(0);
    sandbox.realTime.tick(60_000);
    // Before any sweep: refused.
    const refused = await problem(client.request('GET', '/v3/customers', { token }));
    expect(refused).toMatchObject({ status: 401, code: 'partner_expired' });
    expect(refused.detail).toContain('2026-03-02T12:01:00.000Z');
    expect(rowsOf(sandbox.deps.store, partner.id)).not.toEqual({});
    expect(await sweeper.sweep()).toBe(1);
    expect(rowsOf(sandbox.deps.store, partner.id)).toEqual({});
    expect(await problem(client.request('GET', '/v3/customers', { token }))).toMatchObject({
      code: 'partner_expired',
    });
    await expect(client.token()).rejects.toThrow(/401.*partner_expired/);
  });

  it('leaves expired partners to a later sweep while the store cannot write, and says nothing each time', async () => {
    const sandbox = createTestSandbox();
    const errors: string[] = [];
    sandbox.deps.log = { info: () => {}, error: (message) => errors.push(message) };
    let diskFull = true;
    const health = new StorageHealth({
      probe: async () => {
        if (diskFull) throw new Error('ENOSPC: no space left on device');
      },
    });
    sandbox.deps.persistence = { ...sandbox.deps.persistence, health };
    const sweeper = new PartnerSweeper(sandbox.deps);
    const partner = await createPartner(sandbox, { expires_in: 60 });
    sandbox.realTime.tick(60_000);
    health.failed(new Error('ENOSPC: no space left on device'));
    expect(await sweeper.sweep()).toBe(0);
    expect(rowsOf(sandbox.deps.store, partner.id)).not.toEqual({});
    expect(errors).toEqual([]);
    diskFull = false;
    expect(await health.retry()).toBe(true);
    expect(await sweeper.sweep()).toBe(1);
    expect(rowsOf(sandbox.deps.store, partner.id)).toEqual({});
    health.stop();
  });

  it('drops deliveries in flight and queued: nothing of them is recorded or sent after the delete', async () => {
    const receiver = holdingReceiver();
    const sandbox = createTestSandbox({}, { webhookSender: receiver.send });
    const partner = await createPartner(sandbox);
    const client = clientOf(sandbox, partner);
    await populate(client); // the endpoint's first delivery goes out and is held
    await receiver.nextArrival();
    expect(receiver.held).toHaveLength(1);
    expect(sandbox.deps.webhooks.busy(partner.id)).toBe(true);

    expect((await sandbox.request('DELETE', `/v3/sandbox/partners/${partner.id}`)).status).toBe(204);
    expect(sandbox.deps.webhooks.busy(partner.id)).toBe(false);
    for (const release of receiver.held.splice(0)) release();
    await sandbox.deps.webhooks.idle();
    // The answer of the attempt on the wire wrote nothing back, and nothing else was sent.
    expect(rowsOf(sandbox.deps.store, partner.id)).toEqual({});
    expect(receiver.held).toHaveLength(0);
  });

  it('holds at most --max-partners live partners (partner_limit_reached), room again after a delete', async () => {
    const sandbox = createTestSandbox({ maxPartners: 3 });
    await createPartner(sandbox);
    const second = await createPartner(sandbox);
    const refused = await problem(sandbox.request('POST', '/v3/sandbox/partners', { body: {} }));
    expect(refused).toMatchObject({ status: 422, code: 'partner_limit_reached' });
    expect(refused.detail).toContain('--max-partners 3');
    expect((await sandbox.request('DELETE', `/v3/sandbox/partners/${second.id}`)).status).toBe(204);
    expect((await sandbox.request('POST', '/v3/sandbox/partners', { body: {} })).status).toBe(201);
  });

  it('gives partners created without expires_in the default lifetime (--partner-ttl)', async () => {
    const sandbox = createTestSandbox({ partnerTtlSeconds: 3600 });
    expect((await createPartner(sandbox)).expires_at).toBe('2026-03-02T13:00:00.000Z');
    expect((await createPartner(sandbox, { expires_in: 120 })).expires_at).toBe('2026-03-02T12:02:00.000Z');
  });
});
