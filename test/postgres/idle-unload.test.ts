import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { CPF } from '../support/customers.js';
import { type PartnerClient, partnerClient } from '../support/partner-client.js';
import { type CreatedPartner, createPartner } from '../support/partners.js';
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

function clientOf(server: RunningServer, partner?: CreatedPartner): PartnerClient {
  const send = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, init);
  return partner ? partnerClient(send, partner.client_id, partner.client_secret) : partnerClient(send);
}

async function lease(url: string, partnerId: string): Promise<{ owner: string; wake: number } | undefined> {
  const [row] = await query<{ owner: string; wake: number }>(
    url,
    'SELECT owner, (extract(epoch FROM expires_at) * 1000)::float8 AS wake FROM partner_leases WHERE partner_id = $1',
    [partnerId],
  );
  return row;
}

describe('shared mode: idle partners leave memory', () => {
  it('unloads an idle partner, and its next request loads it again whole', async () => {
    const url = await freshDatabase('idle_request');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    const metricsToken = 'scrape-token-0123456789';
    const server = await startQuietServer({
      databaseUrl: url,
      realNow: () => time.ms,
      idleUnloadMs: 15 * 60_000,
      metricsToken,
    });
    started.push(server);
    const partner = await createPartner(clientOf(server));
    const own = clientOf(server, partner);
    const customer = await own.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: CPF.plain, name: 'Maria da Silva', email: 'maria@example.com', phone: '+5511987654321' },
    });
    const cluster = server.shared?.cluster;
    expect(cluster?.owns(partner.id)).toBe(true);

    time.ms += 14 * 60_000;
    expect(await cluster?.unloadIdle()).toBe(0);
    time.ms += 60_000;
    // 15 minutes without a request: written, dropped from memory, parked with no wake time.
    expect(await cluster?.unloadIdle()).toBeGreaterThanOrEqual(1);
    expect(cluster?.owns(partner.id)).toBe(false);
    expect(server.deps.store.partners.get(partner.id)).toBeUndefined();
    expect(server.deps.store.customers.get(customer.body.id)).toBeUndefined();
    expect(await lease(url, partner.id)).toEqual({ owner: '(parked)', wake: Number.POSITIVE_INFINITY });
    // Both partners (the default one was idle too) left memory; the sandbox still has both.
    const scraped = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const text = await scraped.text();
    expect(text).toMatch(/^credit_sandbox_partners\{state="resident"\} 0$/m);
    expect(text).toMatch(/^credit_sandbox_partners\{state="total"\} 2$/m);

    const again = await own.json<{ id: string }>('GET', `/v3/customers/${customer.body.id}`);
    expect(again.status).toBe(200);
    expect(cluster?.owns(partner.id)).toBe(true);
  });

  it('loads a parked partner when its next timed job falls due, so a webhook retry runs on time', async () => {
    const url = await freshDatabase('idle_wake');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    const receiver = await startReceiver(() => ({ status: 503 }));
    receivers.push(receiver);
    const server = await startQuietServer({
      databaseUrl: url,
      realNow: () => time.ms,
      idleUnloadMs: 1000,
      webhookHttpHosts: [],
    });
    started.push(server);
    const partner = await createPartner(clientOf(server), { clock: 'running' });
    const own = clientOf(server, partner);
    expect((await own.json('POST', '/v3/webhooks/endpoints', { body: { url: receiver.url } })).status).toBe(
      201,
    );
    expect(
      (await own.json('POST', '/v3/customers', { body: { cpf: CPF.plain, name: 'Maria da Silva' } })).status,
    ).toBe(201);
    await eventually(() => receiver.received.length === 1, 20_000, 'the first attempt (answered 503)');
    await server.deps.webhooks.idle(20_000);
    await server.deps.persistence.flush();
    // Its retry falls due 5 s of its clock later; idle for 2 s: unloaded, parked until then.
    const cluster = server.shared?.cluster;
    time.ms += 2000;
    expect(await cluster?.unloadIdle()).toBeGreaterThanOrEqual(1);
    expect(server.deps.store.partners.get(partner.id)).toBeUndefined();
    const parked = await lease(url, partner.id);
    expect(parked?.owner).toBe('(parked)');
    expect(parked?.wake).toBeGreaterThan(time.ms);
    expect(parked?.wake).toBeLessThanOrEqual(time.ms + 5000);

    // Not yet due: the sweep leaves it parked.
    await cluster?.tick();
    expect(cluster?.owns(partner.id)).toBe(false);
    // Due: the sweep loads it and the retry goes out, with no request.
    time.ms = (parked?.wake ?? 0) + 1;
    await cluster?.tick();
    expect(cluster?.owns(partner.id)).toBe(true);
    await eventually(() => receiver.received.length === 2, 20_000, 'the retry of the loaded partner');
  });
});
