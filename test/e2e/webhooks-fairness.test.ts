import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { DEFAULT_PARTNER_CONCURRENCY } from '../../src/webhooks/dispatcher.js';
import { newPartnerToken, type TestSandbox } from '../support/sandbox.js';
import { gate, NEVER, type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { createEndpoint, deliveries, emitEvent, webhookSandbox } from '../support/webhooks.js';

// A receiver that accepts the request and never answers, and sandboxes whose attempts never time
// out during a test: a slot a hanging delivery holds stays held, so a delivery that arrives meanwhile
// did not wait for one (a starved one would never arrive: the test's limit reports the hang).
const HANG = { status: 200, until: NEVER };
const NO_TIMEOUT = { webhookTimeoutMs: 30 * 60_000 };

const receivers: Receiver[] = [];
const sandboxes: TestSandbox[] = [];

afterEach(async () => {
  for (const s of sandboxes.splice(0)) {
    s.deps.engine.stop();
    await s.deps.webhooks.close();
  }
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(hang: boolean): Promise<Receiver> {
  const r = await startReceiver(() => (hang ? HANG : { status: 200 }));
  receivers.push(r);
  return r;
}

describe('delivery fairness', () => {
  it('200 events to a receiver that never answers slow only that endpoint', async () => {
    const sandbox = webhookSandbox(NO_TIMEOUT);
    sandboxes.push(sandbox);
    const dead = await receiver(true);
    const healthy = await receiver(false);
    const other = await newPartnerToken(sandbox);
    const deadEndpoint = await createEndpoint(sandbox, { url: dead.url, events: ['loan.*'] });
    await createEndpoint(sandbox, { url: healthy.url, events: ['customer.*'] });
    await createEndpoint(sandbox, { url: `${healthy.url}?partner=other` }, other.token);

    for (let i = 0; i < 200; i++) emitEvent(sandbox, 'loan.active', { id: `ln_${i}` });
    await dead.arrived(1);

    emitEvent(sandbox, 'customer.created', { id: 'cust_same_partner' });
    emitEvent(sandbox, 'customer.created', { id: 'cust_other_partner' }, other.id);
    await healthy.arrived(2);
    expect(dead.received).toHaveLength(1);

    // The dead endpoint holds one slot; the rest of its deliveries say honestly that they wait.
    const sending = await deliveries(sandbox, '&status=sending');
    expect(sending.map((d) => d.endpoint_id)).toEqual([deadEndpoint.id]);
    const queued = await deliveries(sandbox, '&status=queued');
    expect(queued).toHaveLength(100);
    expect(queued.every((d) => d.endpoint_id === deadEndpoint.id && d.attempts.length === 0)).toBe(true);
    expect(sandbox.deps.store.deliveryIdx.byStatus.rows(`${DEFAULT_PARTNER_ID}|queued`)).toHaveLength(199);
  });

  it("a partner whose receivers all hang holds at most its share of slots; another partner's delivery still arrives", async () => {
    const sandbox = webhookSandbox(NO_TIMEOUT);
    sandboxes.push(sandbox);
    const dead = await receiver(true);
    const healthy = await receiver(false);
    const other = await newPartnerToken(sandbox);
    for (let e = 0; e < 40; e++) await createEndpoint(sandbox, { url: `${dead.url}?endpoint=${e}` });
    await createEndpoint(sandbox, { url: healthy.url }, other.token);

    for (let i = 0; i < 5; i++) emitEvent(sandbox, 'loan.active', { id: `ln_${i}` }); // 200 deliveries
    await dead.arrived(DEFAULT_PARTNER_CONCURRENCY);

    emitEvent(sandbox, 'loan.active', { id: 'ln_other' }, other.id);
    await healthy.arrived(1);
    expect(dead.received).toHaveLength(DEFAULT_PARTNER_CONCURRENCY);
    const store = sandbox.deps.store;
    expect(store.deliveryIdx.byStatus.rows(`${DEFAULT_PARTNER_ID}|sending`)).toHaveLength(
      DEFAULT_PARTNER_CONCURRENCY,
    );
    expect(store.deliveryIdx.byStatus.rows(`${DEFAULT_PARTNER_ID}|queued`)).toHaveLength(
      200 - DEFAULT_PARTNER_CONCURRENCY,
    );
  });
});

describe('queued deliveries', () => {
  it('a delivery queued behind a hanging one is skipped unsent when its endpoint is disabled meanwhile', async () => {
    const sandbox = webhookSandbox(NO_TIMEOUT);
    sandboxes.push(sandbox);
    // The first attempt hangs until the endpoint is disabled, then fails (a retry is scheduled).
    const answer = gate();
    const dead = await startReceiver(() => ({ status: 500, until: answer.opened }));
    receivers.push(dead);
    const endpoint = await createEndpoint(sandbox, { url: dead.url });
    emitEvent(sandbox, 'loan.active', { id: 'ln_1' });
    emitEvent(sandbox, 'loan.active', { id: 'ln_2' });
    await dead.arrived(1);
    expect((await deliveries(sandbox, '&status=queued')).map((d) => d.event_type)).toEqual(['loan.active']);

    const disabled = await sandbox.json('PATCH', `/v3/webhooks/endpoints/${endpoint.id}`, {
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    answer.open();
    await sandbox.deps.webhooks.idle();
    expect(dead.received).toHaveLength(1);
    const log = await deliveries(sandbox);
    expect(log.map((d) => d.status).sort()).toEqual(['pending', 'skipped']);
    expect(log.find((d) => d.status === 'skipped')?.attempts).toEqual([]);
  });

  it('after a restart, deliveries that were queued or in flight are scheduled again', async () => {
    const first = webhookSandbox();
    sandboxes.push(first);
    const healthy = await receiver(false);
    await createEndpoint(first, { url: healthy.url });
    const store = first.deps.store;
    first.deps.engine.stop();
    // Two deliveries caught mid-way by a stop: one waiting for a slot, one in flight.
    for (const status of ['queued', 'sending'] as const) {
      emitEvent(first, 'loan.active', { id: `ln_${status}` });
      const row = store.deliveryIdx.byStatus.rows(`${DEFAULT_PARTNER_ID}|pending`)[0];
      if (!row?.job_id) throw new Error('expected a pending delivery with a job');
      first.deps.engine.scheduler.cancel(row.job_id);
      store.deliveries.replace({ ...row, status, job_id: null });
    }
    await first.deps.webhooks.close();

    const second = webhookSandbox({}, store);
    sandboxes.push(second);
    second.deps.engine.start();
    await second.deps.webhooks.idle();
    expect(healthy.received.map((r) => JSON.parse(r.body).data.id).sort()).toEqual([
      'ln_queued',
      'ln_sending',
    ]);
    expect(store.deliveryIdx.byStatus.rows(`${DEFAULT_PARTNER_ID}|succeeded`)).toHaveLength(2);
  });
});
