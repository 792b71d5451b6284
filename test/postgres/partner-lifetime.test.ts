import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { purgePartners } from '../../src/store/postgres/purge.js';
import { type PartnerClient, partnerClient } from '../support/partner-client.js';
import { type CreatedPartner, createPartner, populate, rowsOf } from '../support/partners.js';
import { startQuietServer } from '../support/test-server.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { freshDatabase, query } from './support/database.js';
import { eventually } from './support/journey.js';

const started: RunningServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close().catch(() => {})));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** An instance on `url` whose real time moves only when the test moves `time.ms`. */
async function instance(url: string, time: { ms: number }, idleUnloadMs?: number): Promise<RunningServer> {
  const server = await startQuietServer({
    databaseUrl: url,
    realNow: () => time.ms,
    idleUnloadMs,
    leaseMs: 3000,
  });
  started.push(server);
  return server;
}

function clientOf(server: RunningServer, partner?: CreatedPartner): PartnerClient {
  const send = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, init);
  return partner ? partnerClient(send, partner.client_id, partner.client_secret) : partnerClient(send);
}

/** The partner's rows in the database, per table (tables without any left out). */
async function databaseRows(url: string, partnerId: string): Promise<Record<string, number>> {
  const tables = await query<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.columns WHERE column_name = 'partner_id' AND table_schema = current_schema()",
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    if (table_name === 'partner_tombstones' || table_name === 'partner_leases') continue;
    const [row] = await query<{ n: number }>(
      url,
      `SELECT count(*)::int AS n FROM "${table_name}" WHERE partner_id = $1`,
      [partnerId],
    );
    if (row && row.n > 0) counts[table_name] = row.n;
  }
  return counts;
}

async function code(res: Promise<Response>): Promise<string> {
  return ((await (await res).json()) as { code: string }).code;
}

describe('partner lifetimes on PostgreSQL', () => {
  it('deletes a partner held by another instance: rows gone, both instances answer partner_deleted', async () => {
    const url = await freshDatabase('lifetime_delete');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    const [a, b] = [await instance(url, time), await instance(url, time)];
    const admin = clientOf(a);
    const partner = await createPartner(admin);
    // B takes the new partner (its first request lands there) and fills it.
    await populate(clientOf(b, partner));
    const token = await clientOf(b, partner).token();
    expect(b.shared?.cluster.owns(partner.id)).toBe(true);
    expect(Object.keys(await databaseRows(url, partner.id))).toContain('customers');

    // Its creator, served by A, deletes it: A sends the deletion to B, which removes it in one write.
    const deleted = await admin.request('DELETE', `/v3/sandbox/partners/${partner.id}`);
    expect(deleted.status, await deleted.clone().text()).toBe(204);
    expect(await databaseRows(url, partner.id)).toEqual({});
    expect(b.shared?.cluster.owns(partner.id)).toBe(false);
    expect(rowsOf(b.deps.store, partner.id)).toEqual({});
    const [lease] = await query<{ owner: string }>(
      url,
      'SELECT owner FROM partner_leases WHERE partner_id = $1',
      [partner.id],
    );
    expect(lease?.owner).toBe('(gone)');
    for (const server of [a, b]) {
      expect(await code(clientOf(server, partner).request('GET', '/v3/customers', { token }))).toBe(
        'partner_deleted',
      );
      await expect(clientOf(server, partner).token()).rejects.toThrow(/partner_deleted/);
    }
    expect((await admin.request('DELETE', `/v3/sandbox/partners/${partner.id}`)).status).toBe(404);
  });

  it('extends the lifetime of a partner another instance holds (PATCH by its creator)', async () => {
    const url = await freshDatabase('lifetime_extend');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    const [a, b] = [await instance(url, time), await instance(url, time)];
    const partner = await createPartner(clientOf(a), { expires_in: 60 });
    await clientOf(b, partner).token();
    expect(b.shared?.cluster.owns(partner.id)).toBe(true);
    const extended = await clientOf(a).json<{ expires_at: string }>(
      'PATCH',
      `/v3/sandbox/partners/${partner.id}`,
      {
        body: { expires_in: 3600 },
      },
    );
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(extended.body.expires_at).toBe('2026-03-02T13:00:00.000Z');
    time.ms += 120_000;
    expect(b.deps.store.partners.get(partner.id)?.expires_at_ms).toBe(Date.parse('2026-03-02T13:00:00Z'));
    expect((await clientOf(b, partner).json('GET', '/v3/sandbox/clock')).status).toBe(200);
  });

  it('forgets a partner removed in the database while it held it: its writes are refused, the next renewal drops it', async () => {
    const url = await freshDatabase('lifetime_fenced');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    const a = await instance(url, time);
    const partner = await createPartner(clientOf(a));
    const own = clientOf(a, partner);
    await populate(own);
    // Another instance's sweep removes it straight from the database.
    const persistence = a.deps.persistence as unknown as { pool: import('pg').Pool };
    await purgePartners(persistence.pool, a.deps.store.tableNames(), [partner.id], {
      reason: 'expired',
      goneAtMs: time.ms,
    });
    const write = await own.json<{ code: string }>('POST', '/v3/webhooks/endpoints', {
      body: { url: 'http://127.0.0.1:9/late' },
    });
    expect(write.status).toBe(503);
    expect(await databaseRows(url, partner.id)).toEqual({});
    await a.shared?.cluster.tick();
    expect(rowsOf(a.deps.store, partner.id)).toEqual({});
    await expect(own.token()).rejects.toThrow(/partner_expired/);
  });

  it('drops deliveries in flight: the answer of an attempt on the wire writes nothing back', async () => {
    const url = await freshDatabase('lifetime_inflight');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    let arrived = 0;
    const receiver = await startReceiver(() => {
      arrived++;
      return { status: 200, hangMs: 60_000 };
    });
    receivers.push(receiver);
    const a = await instance(url, time);
    const partner = await createPartner(clientOf(a));
    const own = clientOf(a, partner);
    await populate(own, receiver.url);
    await eventually(() => arrived > 0, 20_000, 'the first delivery to reach the receiver');
    expect(a.deps.webhooks.busy(partner.id)).toBe(true);
    expect((await clientOf(a).request('DELETE', `/v3/sandbox/partners/${partner.id}`)).status).toBe(204);
    expect(a.deps.webhooks.busy(partner.id)).toBe(false);
    await receiver.close(); // cuts the held answer: the attempt ends on the sandbox's side
    receivers.splice(0);
    await a.deps.webhooks.idle(20_000);
    await a.deps.persistence.flush();
    expect(await databaseRows(url, partner.id)).toEqual({});
    expect(rowsOf(a.deps.store, partner.id)).toEqual({});
  });

  it('removes partners whose lifetime ran out while no instance held them, without loading them', async () => {
    const url = await freshDatabase('lifetime_expiry');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    const a = await instance(url, time, 60_000);
    const partner = await createPartner(clientOf(a), { expires_in: 3600 });
    await populate(clientOf(a, partner));
    // Idle for 15 minutes: unloaded and parked (no job due before its lifetime ends).
    time.ms += 15 * 60_000;
    expect(await a.shared?.cluster.unloadIdle()).toBeGreaterThanOrEqual(1);
    expect(a.deps.store.partners.get(partner.id)).toBeUndefined();
    time.ms += 3600_000;
    expect(await a.sweeper.sweep()).toBe(1);
    expect(a.deps.store.partners.get(partner.id)).toBeUndefined();
    expect(await databaseRows(url, partner.id)).toEqual({});
    await expect(clientOf(a, partner).token()).rejects.toThrow(/partner_expired/);
    const tombstones = await query<{ reason: string }>(
      url,
      "SELECT record->>'reason' AS reason FROM partner_tombstones",
    );
    expect(tombstones.map((t) => t.reason)).toEqual(['expired', 'expired']);
  });
});
