import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, startServer } from '../../src/server.js';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
} from '../support/credit.js';
import { CPF, createCustomer } from '../support/customers.js';
import type { TestSandbox } from '../support/sandbox.js';
import { apiPicture } from '../support/snapshots.js';
import { freshDatabase, query } from './support/database.js';
import { httpSandbox } from './support/http-sandbox.js';

const silent = { info: () => {}, error: () => {} };
const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.close().catch(() => {})));
});

async function start(databaseUrl: string): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    publicUrl: 'http://sandbox.test',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    // An internal fleet: the webhook endpoint below is on loopback.
    safety: { webhookPublicOnly: false, partnerSignup: true, quotas: undefined },
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: silent,
  });
  running.push(server);
  return server;
}

/** A loan signed and waiting for its disbursement job, an endpoint with chaos, an idempotency key. */
async function buildWorld(api: TestSandbox): Promise<void> {
  const endpoint = await api.json<{ id: string }>('POST', '/v3/webhooks/endpoints', {
    // Subscribed to an event nothing here emits: no delivery is in flight at the save.
    body: { url: 'http://127.0.0.1:9/hooks', events: ['loan.cancelled'] },
    headers: { 'Idempotency-Key': 'endpoint-1' },
  });
  expect(endpoint.status).toBe(201);
  const chaos = await api.json('PUT', `/v3/sandbox/webhooks/endpoints/${endpoint.body.id}/chaos`, {
    body: { drop_rate: 0.5 },
  });
  expect(chaos.status).toBe(200);
  const customer = await activeCustomer(api, { cpf: TIER_CPF.standard });
  const offer = (await offersOf(api, customer.id))[0] as OfferBody;
  const loan = await createLoan(api, offer.id, (await simulate(api, offer.id, '2000.00', 12)).id);
  await advanceClock(api, { by: '10s' });
  expect((await api.json('POST', `/v3/sandbox/loans/${loan.id}/sign`)).status).toBe(200);
}

describe('snapshots in shared mode (--database)', () => {
  it('are saved in PostgreSQL and restored from any instance, and survive a restart of the fleet', async () => {
    const url = await freshDatabase('snapshots');
    const [a, b] = await Promise.all([start(url), start(url)]);
    const viaA = httpSandbox(() => a.url);
    const viaB = httpSandbox(() => b.url);
    await buildWorld(viaA);
    const atSave = await apiPicture(viaA);
    expect((await viaA.json('POST', '/v3/sandbox/snapshots', { body: { name: 'signed' } })).status).toBe(201);
    const rows = await query<{ partner_id: string; name: string }>(
      url,
      "SELECT partner_id, record->>'name' AS name FROM snapshots",
    );
    expect(rows).toEqual([{ partner_id: 'ptn_default', name: 'signed' }]);

    // Change everything through the other instance, then restore through it.
    await advanceClock(viaB, { by: '40d' });
    await createCustomer(viaB, { cpf: CPF.other });
    expect(await apiPicture(viaB)).not.toEqual(atSave);
    const restored = await viaB.json('POST', '/v3/sandbox/snapshots/signed/restore');
    expect(restored.status).toBe(200);
    expect(await apiPicture(viaA)).toEqual(atSave);
    expect(await apiPicture(viaB)).toEqual(atSave);

    // The restore is in the database: a fleet started afresh shows the restored world and the snapshot.
    await Promise.all([a.close(), b.close()]);
    const c = await start(url);
    const viaC = httpSandbox(() => c.url);
    expect(await apiPicture(viaC)).toEqual(atSave);
    await createCustomer(viaC, { cpf: CPF.other });
    expect((await viaC.json('POST', '/v3/sandbox/snapshots/signed/restore')).status).toBe(200);
    expect(await apiPicture(viaC)).toEqual(atSave);

    // Export, then import into a fresh fleet: the same world there.
    const exported = await viaC.request('GET', '/v3/sandbox/snapshots/signed/export?gzip=1');
    const file = new Uint8Array(await exported.arrayBuffer());
    const fresh = await start(await freshDatabase('snapshots_import'));
    const viaFresh = httpSandbox(() => fresh.url);
    // The gzip bytes as they are (the test client would send its body as JSON text).
    const imported = await fetch(`${fresh.url}/v3/sandbox/snapshots/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await viaFresh.token()}`, 'content-type': 'application/gzip' },
      body: file,
    });
    expect(imported.status).toBe(201);
    expect(await apiPicture(viaFresh)).toEqual(atSave);
    // A damaged document changes nothing there.
    const damaged = await viaFresh.json<{ code: string }>('POST', '/v3/sandbox/snapshots/import', {
      body: '{"format": "credit-sandbox-snapshot", "version": 1, "tables": ',
    });
    expect(damaged.status).toBe(422);
    expect(damaged.body.code).toBe('snapshot_invalid');
    expect(await apiPicture(viaFresh)).toEqual(atSave);
  });
});
