import { afterEach, describe, expect, it } from 'vitest';
import type { RandomSource } from '../../src/lib/random.js';
import type { OutgoingWebhook, ReceiverAnswer } from '../../src/webhooks/sender.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';
import { seededRandom } from '../support/seeded-random.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import {
  advance,
  createEndpoint,
  type DeliveryBody,
  deliveries,
  emitEvent,
  webhookSandbox,
} from '../support/webhooks.js';

interface ChaosDelivery extends DeliveryBody {
  chaos: {
    act: string;
    at: string;
    delay_ms: number | null;
    attempt_number: number | null;
    duplicate_delivery_id: string | null;
  }[];
}

const receivers: Receiver[] = [];
const sandboxes: TestSandbox[] = [];

afterEach(async () => {
  for (const s of sandboxes.splice(0)) {
    s.deps.engine.stop();
    await s.deps.webhooks.close();
  }
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setup(): Promise<{ sandbox: TestSandbox; rx: Receiver; endpointId: string }> {
  const sandbox = webhookSandbox();
  sandboxes.push(sandbox);
  const rx = await startReceiver();
  receivers.push(rx);
  const endpoint = await createEndpoint(sandbox, { url: rx.url });
  return { sandbox, rx, endpointId: endpoint.id };
}

async function putChaos(sandbox: TestSandbox, endpointId: string, body: Record<string, unknown>) {
  return sandbox.json<Record<string, unknown>>('PUT', `/v3/sandbox/webhooks/endpoints/${endpointId}/chaos`, {
    body,
  });
}

const ids = (rx: Receiver) => rx.received.map((r) => r.headers['webhook-id']);

describe('webhook chaos settings', () => {
  it('PUT sets, GET shows, DELETE clears; bad values answer 400 naming the field', async () => {
    const { sandbox, endpointId } = await setup();
    const path = `/v3/sandbox/webhooks/endpoints/${endpointId}/chaos`;
    const off = {
      endpoint_id: endpointId,
      enabled: false,
      duplicate_rate: 0,
      drop_rate: 0,
      max_delay: null,
      reorder: false,
    };
    expect((await sandbox.json('GET', path)).body).toEqual(off);
    const put = await putChaos(sandbox, endpointId, { duplicate_rate: 0.2, max_delay: '90s', reorder: true });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...off, enabled: true, duplicate_rate: 0.2, max_delay: '90s', reorder: true });
    expect((await sandbox.json('GET', path)).body).toEqual(put.body);
    expect((await sandbox.json('DELETE', path)).body).toEqual(off);
    expect((await sandbox.json('GET', path)).body).toEqual(off);

    for (const [body, param] of [
      [{ duplicate_rate: 1.5 }, 'duplicate_rate'],
      [{ drop_rate: -0.1 }, 'drop_rate'],
      [{ max_delay: '2h' }, 'max_delay'],
      [{ max_delay: 'soon' }, 'max_delay'],
      [{ reorder: true }, 'reorder'],
      [{ chaos: true }, 'body'],
    ] as const) {
      const res = await putChaos(sandbox, endpointId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.param ?? (res.body.errors as { param: string }[])?.[0]?.param).toBe(param);
    }
    expect((await sandbox.json('GET', '/v3/sandbox/webhooks/endpoints/we_unknown/chaos')).status).toBe(404);
  });
});

describe('webhook chaos acts', () => {
  it('duplicate_rate 1: every event arrives twice with the same webhook-id', async () => {
    const { sandbox, rx, endpointId } = await setup();
    await putChaos(sandbox, endpointId, { duplicate_rate: 1 });
    const events = [0, 1, 2].map((i) => emitEvent(sandbox, 'loan.active', { id: `ln_${i}` }));
    await sandbox.deps.webhooks.idle();
    for (const event of events) expect(ids(rx).filter((id) => id === event.id)).toHaveLength(2);
    expect(rx.received).toHaveLength(6);
    const log = (await deliveries(sandbox)) as ChaosDelivery[];
    const originals = log.filter((d) => d.trigger === 'event');
    const copies = log.filter((d) => d.trigger === 'duplicate');
    expect(originals).toHaveLength(3);
    expect(copies).toHaveLength(3);
    for (const original of originals) {
      expect(original.chaos).toMatchObject([{ act: 'duplicate' }]);
      const copy = copies.find((d) => d.id === original.chaos[0]?.duplicate_delivery_id);
      expect(copy).toMatchObject({ event_id: original.event_id, status: 'succeeded', chaos: [] });
    }
  });

  it('drop_rate 1 for one attempt: the attempt is recorded as dropped and the event arrives on retry', async () => {
    const { sandbox, rx, endpointId } = await setup();
    await putChaos(sandbox, endpointId, { drop_rate: 1 });
    const event = emitEvent(sandbox, 'loan.active');
    await sandbox.deps.webhooks.idle();
    expect(rx.received).toHaveLength(0);
    let [delivery] = (await deliveries(sandbox)) as ChaosDelivery[];
    expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: '2026-03-02T12:00:05.000Z' });
    expect(delivery?.attempts).toMatchObject([
      { attempt_number: 1, status_code: null, error: expect.stringMatching(/^dropped by webhook chaos/) },
    ]);
    expect(delivery?.chaos).toMatchObject([{ act: 'dropped', attempt_number: 1 }]);

    await sandbox.request('DELETE', `/v3/sandbox/webhooks/endpoints/${endpointId}/chaos`);
    await advance(sandbox, '5s');
    await sandbox.deps.webhooks.idle();
    expect(ids(rx)).toEqual([event.id]);
    [delivery] = (await deliveries(sandbox)) as ChaosDelivery[];
    expect(delivery).toMatchObject({ status: 'succeeded' });
    expect(delivery?.attempts.map((a) => a.status_code)).toEqual([null, 200]);
  });

  it('max_delay: every first attempt waits at most that long on the partner clock, in order without reorder', async () => {
    const { sandbox, rx, endpointId } = await setup();
    await putChaos(sandbox, endpointId, { max_delay: '30s' });
    const events = Array.from({ length: 20 }, (_, i) => emitEvent(sandbox, 'loan.active', { id: `ln_${i}` }));
    await sandbox.deps.webhooks.idle();
    const early = rx.received.length;
    await advance(sandbox, '30s');
    await sandbox.deps.webhooks.idle();
    expect(ids(rx)).toEqual(events.map((e) => e.id));
    expect(early).toBeLessThan(20);
    const log = (await deliveries(sandbox)) as ChaosDelivery[];
    expect(log).toHaveLength(20);
    for (const d of log) {
      const first = d.attempts[0];
      const waited = Date.parse(first?.attempted_at ?? '') - Date.parse('2026-03-02T12:00:00.000Z');
      expect(waited).toBeGreaterThanOrEqual(0);
      expect(waited).toBeLessThanOrEqual(30_000);
      expect(d.chaos).toEqual([expect.objectContaining({ act: 'delayed', delay_ms: waited })]);
    }
  });

  it('reorder: a receiver sees at least one overtaking in a run of 50 events', async () => {
    const { sandbox, rx, endpointId } = await setup();
    await putChaos(sandbox, endpointId, { max_delay: '60s', reorder: true });
    const events = Array.from({ length: 50 }, (_, i) => emitEvent(sandbox, 'loan.active', { id: `ln_${i}` }));
    await advance(sandbox, '60s');
    await sandbox.deps.webhooks.idle();
    const order = ids(rx).map((id) => events.findIndex((e) => e.id === id));
    expect([...order].sort((a, b) => a - b)).toEqual(events.map((_, i) => i));
    const overtakings = order.filter((n, i) => i > 0 && n < (order[i - 1] ?? 0)).length;
    expect(overtakings).toBeGreaterThan(0);
  });
});

describe('replayable chaos', () => {
  /** A run with every kind of chaos on, received in-process; returns what happened, in order. */
  async function chaoticRun(random: RandomSource): Promise<string[]> {
    const received: string[] = [];
    const send = async (webhook: OutgoingWebhook): Promise<ReceiverAnswer> => {
      received.push(`${webhook.url} ${webhook.headers['webhook-id']}`);
      return { statusCode: 200, retryAfter: null, body: '' };
    };
    const sandbox = createTestSandbox({}, { webhookSender: send, random });
    sandboxes.push(sandbox);
    for (const url of ['https://a.test/hooks', 'https://b.test/hooks']) {
      const endpoint = await createEndpoint(sandbox, { url });
      await putChaos(sandbox, endpoint.id, {
        duplicate_rate: 0.3,
        drop_rate: 0.3,
        max_delay: '20s',
        reorder: true,
      });
    }
    for (let i = 0; i < 30; i++) emitEvent(sandbox, 'loan.active', { id: `ln_${i}` });
    for (let step = 0; step < 8; step++) {
      await sandbox.deps.webhooks.idle();
      await advance(sandbox, '10s');
    }
    await sandbox.deps.webhooks.idle();
    const acts = [...sandbox.deps.store.deliveries.values()].map(
      (d) =>
        `${d.id} ${d.trigger} ${d.status} ${JSON.stringify(d.chaos)} ${d.attempts.map((a) => a.attempted_at).join(',')}`,
    );
    return [...received, ...acts];
  }

  it('the same seed gives the same chaotic sequence; another seed a different one', async () => {
    const first = await chaoticRun(seededRandom(42));
    const second = await chaoticRun(seededRandom(42));
    const other = await chaoticRun(seededRandom(7));
    expect(first.some((line) => line.includes('"dropped"'))).toBe(true);
    expect(first.some((line) => line.includes('"duplicate"'))).toBe(true);
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
  });
});
