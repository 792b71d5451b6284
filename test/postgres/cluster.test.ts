import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSandbox } from '../support/sandbox.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { freshDatabase, query } from './support/database.js';
import { type Instance, startInstance, stopInstance } from './support/fleet.js';
import { httpSandbox } from './support/http-sandbox.js';
import { eventually, type JourneyResult, journey, newPartner } from './support/journey.js';
import { type RoundRobinProxy, startProxy } from './support/round-robin-proxy.js';

const PARTNERS = 20;
/** A team's internal sandbox: its webhook receiver is on loopback, so hosted safety is off. */
const INTERNAL = ['--hosted-safety', 'off'];

describe.each([3, 2])('shared mode: %i instances on one PostgreSQL behind a round-robin proxy', (size) => {
  let databaseUrl: string;
  let instances: Instance[] = [];
  let proxy: RoundRobinProxy;
  let receiver: Receiver;
  let reference: JourneyResult;

  beforeAll(async () => {
    receiver = await startReceiver();
    // The same journey on one instance alone: what every partner of the fleet must also see.
    const single = await startInstance(await freshDatabase(`reference${size}`), INTERNAL);
    reference = await journey(
      httpSandbox(() => single.url),
      receiver.url,
    );
    await stopInstance(single);

    databaseUrl = await freshDatabase(`fleet${size}`);
    instances = await Promise.all(Array.from({ length: size }, () => startInstance(databaseUrl, INTERNAL)));
    proxy = await startProxy(() => instances.map((i) => i.url));
  });

  afterAll(async () => {
    await Promise.all(instances.map(stopInstance));
    await proxy?.close();
    await receiver?.close();
  });

  it('runs the whole journey for 20 partners in parallel with the same results as one instance', async () => {
    const admin = httpSandbox(() => proxy.url);
    const partners: TestSandbox[] = [];
    for (let n = 0; n < PARTNERS; n++) partners.push(await newPartner(admin, () => proxy.url, `p${n}`));
    const results = await Promise.all(partners.map((api) => journey(api, receiver.url)));
    for (const result of results) {
      expect(result.eventTypes).toEqual(reference.eventTypes);
      expect(result.loanStatus).toBe(reference.loanStatus);
      expect(result.paidInstallments).toBe(1);
    }
    // Requests really landed on every instance, and partners are spread over more than one owner.
    expect([...proxy.counts.values()].every((n) => n > 50)).toBe(true);
    const owners = await query<{ owner: string }>(
      databaseUrl,
      "SELECT DISTINCT owner FROM partner_leases WHERE owner NOT IN ('(parked)', '(gone)')",
    );
    expect(owners.length).toBeGreaterThan(1);
    // Every event was delivered at least once, whichever instance owned its partner.
    const expected = new Set(results.flatMap((r) => r.eventIds));
    await eventually(
      () => {
        const seen = new Set(receiver.received.map((w) => w.headers['webhook-id']));
        return [...expected].every((id) => seen.has(id));
      },
      30_000,
      'every event to be delivered',
    );
  });

  it('replays an idempotent POST retried on another instance', async () => {
    const [a, b] = instances as [Instance, Instance];
    const api = await newPartner(
      httpSandbox(() => a.url),
      () => a.url,
      'idem',
    );
    const token = await api.token();
    const post = (base: string) =>
      fetch(`${base}/v3/customers`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': 'k-1',
        },
        body: JSON.stringify({
          cpf: '52998224725',
          name: 'Ana',
          email: 'ana@example.com',
          phone: '+5511987654321',
        }),
      });
    const first = await post(a.url);
    expect(first.status).toBe(201);
    const second = await post(b.url);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
  });

  it('restores everything from PostgreSQL alone when every instance restarts', async () => {
    const admin = httpSandbox(() => proxy.url);
    const before = await admin.json<{ data: { id: string }[] }>('GET', '/v3/sandbox/events?limit=100');
    expect(before.status).toBe(200);
    await Promise.all(instances.map(stopInstance));
    instances = await Promise.all(Array.from({ length: size }, () => startInstance(databaseUrl, INTERNAL)));
    const restarted = httpSandbox(() => proxy.url);
    const after = await restarted.json<{ data: { id: string }[] }>('GET', '/v3/sandbox/events?limit=100');
    expect(after.body).toEqual(before.body);
    const partners = await query<{ n: string }>(databaseUrl, 'SELECT count(*) AS n FROM partners');
    expect(Number(partners[0]?.n)).toBe(PARTNERS + 2);
  });
});
