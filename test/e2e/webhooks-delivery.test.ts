import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { jsonObject } from '../../src/store/record-rules.js';
import { type Snapshot, Store } from '../../src/store/store.js';
import { sampleEventData } from '../support/event-samples.js';
import type { TestSandbox } from '../support/sandbox.js';
import { newPartnerToken } from '../support/sandbox.js';
import {
  gate,
  NEVER,
  type Receiver,
  type Responder,
  startReceiver,
  verify,
} from '../support/webhook-receiver.js';
import {
  advance,
  createEndpoint,
  type DeliveryBody,
  deliveries,
  emitEvent,
  webhookSandbox,
} from '../support/webhooks.js';

const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();
const S = 1000;
const M = 60 * S;
const H = 60 * M;

const receivers: Receiver[] = [];
const sandboxes: TestSandbox[] = [];

async function receiver(respond?: Responder): Promise<Receiver> {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

function sandbox(config: Parameters<typeof webhookSandbox>[0] = {}, store?: Store): TestSandbox {
  const s = webhookSandbox(config, store);
  sandboxes.push(s);
  return s;
}

afterEach(async () => {
  for (const s of sandboxes.splice(0)) {
    s.deps.engine.stop();
    await s.deps.webhooks.close();
  }
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('delivery', () => {
  it('POSTs exactly {type, timestamp, data} with Standard Webhooks headers, verified three ways', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    const event = emitEvent(sb, 'customer.created', { id: 'cust_1', status: 'pending_kyc' });
    await sb.deps.webhooks.idle();

    expect(rx.received).toHaveLength(1);
    const [request] = rx.received;
    expect(JSON.parse(request?.body ?? '')).toEqual({
      type: 'customer.created',
      timestamp: iso(0),
      data: event.data,
    });
    expect(event.data).toMatchObject({ id: 'cust_1', status: 'pending_kyc' });
    expect(Object.keys(JSON.parse(request?.body ?? ''))).toEqual(['type', 'timestamp', 'data']);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['webhook-id']).toBe(event.id);
    expect(request?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // Real wall-clock seconds, not the partner clock (which reads 2026-03-02).
    expect(Number(request?.headers['webhook-timestamp'])).toBe(Math.floor(sb.realTime.ms / 1000));
    expect(verify(ep.secret, request as NonNullable<typeof request>)).toEqual({
      standardwebhooks: true,
      svix: true,
      manual: true,
    });

    const [delivery] = await deliveries(sb);
    expect(delivery).toMatchObject({
      id: expect.stringMatching(/^dlv_[0-9a-f]{32}$/),
      event_id: event.id,
      event_type: 'customer.created',
      endpoint_id: ep.id,
      trigger: 'event',
      status: 'succeeded',
      next_attempt_at: null,
      attempts: [
        { attempt_number: 1, attempted_at: iso(0), status_code: 200, error: null, next_attempt_at: null },
      ],
    });
    expect(delivery?.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('keeps webhook-timestamp on real time after the partner clock jumps', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    await advance(sb, '30d');
    emitEvent(sb, 'loan.active');
    await sb.deps.webhooks.idle();
    const request = rx.received[0] as NonNullable<(typeof rx.received)[0]>;
    expect(JSON.parse(request.body).timestamp).toBe(iso(30 * 24 * H));
    expect(Number(request.headers['webhook-timestamp'])).toBe(Math.floor(sb.realTime.ms / 1000));
    expect(verify(ep.secret, request)).toEqual({ standardwebhooks: true, svix: true, manual: true });
  });

  it('signs with both secrets during a rotation grace period and only the new one after it', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    const oldSecret = ep.secret;

    emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    const rotated = await sb.json<{ secret: string }>(
      'POST',
      `/v3/webhooks/endpoints/${ep.id}/secret/rotate`,
      {
        body: { expire_current_in: 3600 },
      },
    );
    const newSecret = rotated.body.secret;
    expect(newSecret).not.toBe(oldSecret);

    emitEvent(sb, 'customer.under_review');
    await sb.deps.webhooks.idle();
    await advance(sb, '59m');
    emitEvent(sb, 'customer.kyc_updated');
    await sb.deps.webhooks.idle();
    await advance(sb, '1m'); // grace ends exactly now: the previous secret no longer signs
    emitEvent(sb, 'customer.active');
    await sb.deps.webhooks.idle();

    const [before, during, lateDuring, after] = rx.received as NonNullable<(typeof rx.received)[0]>[];
    const all = { standardwebhooks: true, svix: true, manual: true };
    const none = { standardwebhooks: false, svix: false, manual: false };

    expect(before?.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verify(oldSecret, before!)).toEqual(all);
    expect(verify(newSecret, before!)).toEqual(none);

    for (const request of [during, lateDuring]) {
      expect(request?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
      expect(verify(oldSecret, request!)).toEqual(all);
      expect(verify(newSecret, request!)).toEqual(all);
    }

    expect(after?.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verify(oldSecret, after!)).toEqual(none);
    expect(verify(newSecret, after!)).toEqual(all);
  });

  it('drops the previous secret at once when rotated with expire_current_in 0', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    const rotated = await sb.json<{ secret: string }>(
      'POST',
      `/v3/webhooks/endpoints/${ep.id}/secret/rotate`,
      {
        body: { expire_current_in: 0 },
      },
    );
    emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    const request = rx.received[0] as NonNullable<(typeof rx.received)[0]>;
    expect(verify(ep.secret, request).standardwebhooks).toBe(false);
    expect(verify(rotated.body.secret, request)).toEqual({
      standardwebhooks: true,
      svix: true,
      manual: true,
    });
  });

  it('delivers only to active endpoints whose patterns match', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const url = (name: string) => `${rx.url}?${name}`;
    await createEndpoint(sb, { url: url('all-empty') });
    await createEndpoint(sb, { url: url('star'), events: ['*'] });
    await createEndpoint(sb, { url: url('loans'), events: ['loan.*'] });
    await createEndpoint(sb, { url: url('created'), events: ['customer.created', 'credit_offer.*'] });
    emitEvent(sb, 'customer.created');
    emitEvent(sb, 'loan.active');
    emitEvent(sb, 'credit_offer.expired');
    emitEvent(sb, 'customer.active');
    await sb.deps.webhooks.idle();

    const log = await deliveries(sb);
    const byType = (type: string) =>
      log
        .filter((d) => d.event_type === type)
        .map((d) => d.endpoint_id)
        .sort();
    const ids = Object.fromEntries(
      (await sb.json<{ data: { id: string; url: string }[] }>('GET', '/v3/webhooks/endpoints')).body.data.map(
        (e) => [e.url.split('?')[1], e.id],
      ),
    ) as Record<string, string>;
    expect(byType('customer.created')).toEqual([ids['all-empty'], ids.star, ids.created].sort());
    expect(byType('loan.active')).toEqual([ids['all-empty'], ids.star, ids.loans].sort());
    expect(byType('credit_offer.expired')).toEqual([ids['all-empty'], ids.star, ids.created].sort());
    expect(byType('customer.active')).toEqual([ids['all-empty'], ids.star].sort());
    expect(rx.received).toHaveLength(11);
    expect(log.every((d) => d.status === 'succeeded')).toBe(true);
  });

  it('never sends an event to endpoints created after it', async () => {
    const sb = sandbox();
    const early = await receiver();
    const late = await receiver();
    await createEndpoint(sb, { url: early.url });
    const first = emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    await createEndpoint(sb, { url: late.url });
    await advance(sb, '1d');
    await sb.deps.webhooks.idle();
    expect(late.received).toHaveLength(0);
    const second = emitEvent(sb, 'customer.active');
    await sb.deps.webhooks.idle();
    expect(early.received.map((r) => r.headers['webhook-id'])).toEqual([first.id, second.id]);
    expect(late.received.map((r) => r.headers['webhook-id'])).toEqual([second.id]);
  });

  it('sends nothing to a disabled endpoint, and resumes with new events once re-enabled', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    await sb.json('PATCH', `/v3/webhooks/endpoints/${ep.id}`, { body: { status: 'disabled' } });
    emitEvent(sb, 'customer.created');
    await advance(sb, '1d');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(0);
    expect(await deliveries(sb)).toEqual([]);

    await sb.json('PATCH', `/v3/webhooks/endpoints/${ep.id}`, { body: { status: 'active' } });
    const later = emitEvent(sb, 'customer.active');
    await sb.deps.webhooks.idle();
    expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([later.id]);
  });

  it('skips a pending retry whose endpoint was disabled by the time it fell due', async () => {
    const sb = sandbox();
    const rx = await receiver(() => ({ status: 500 }));
    const ep = await createEndpoint(sb, { url: rx.url });
    emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    await sb.json('PATCH', `/v3/webhooks/endpoints/${ep.id}`, { body: { status: 'disabled' } });
    await advance(sb, '1d');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(1);
    const [delivery] = await deliveries(sb);
    expect(delivery).toMatchObject({ status: 'skipped', next_attempt_at: null });
    expect(delivery?.attempts).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries after 5 s, 5 m and 30 m with the same webhook-id until the receiver recovers', async () => {
    const sb = sandbox();
    const rx = await receiver((_req, n) => ({ status: n < 3 ? 500 : 200 }));
    const ep = await createEndpoint(sb, { url: rx.url });
    const event = emitEvent(sb, 'loan.created');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(1);

    const steps: [string, number][] = [
      ['5s', 2],
      ['5m', 3],
      ['30m', 4],
    ];
    for (const [by, expected] of steps) {
      // Just before the retry is due nothing happens.
      await advance(sb, by === '5s' ? '4s' : by === '5m' ? '4m' : '29m');
      await sb.deps.webhooks.idle();
      expect(rx.received, `before ${by}`).toHaveLength(expected - 1);
      await advance(sb, by === '5s' ? '1s' : by === '5m' ? '1m' : '1m');
      await sb.deps.webhooks.idle();
      expect(rx.received, `after ${by}`).toHaveLength(expected);
    }
    expect(new Set(rx.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
    for (const request of rx.received) expect(verify(ep.secret, request).standardwebhooks).toBe(true);

    const [delivery] = await deliveries(sb);
    expect(delivery?.status).toBe('succeeded');
    expect(delivery?.attempts.map((a) => [a.attempted_at, a.status_code, a.next_attempt_at])).toEqual([
      [iso(0), 500, iso(5 * S)],
      [iso(5 * S), 500, iso(5 * S + 5 * M)],
      [iso(5 * S + 5 * M), 500, iso(5 * S + 35 * M)],
      [iso(5 * S + 35 * M), 200, null],
    ]);
    expect(delivery?.attempts[0]?.error).toContain('500');

    await advance(sb, '2d');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(4);
  });

  it('ends in failed after the last retry (5 s, 5 m, 30 m, 2 h, 5 h, 10 h, 10 h) when the receiver never recovers', async () => {
    const sb = sandbox();
    const rx = await receiver(() => ({ status: 503 }));
    await createEndpoint(sb, { url: rx.url });
    emitEvent(sb, 'loan.error');
    await sb.deps.webhooks.idle();
    const schedule = ['5s', '5m', '30m', '2h', '5h', '10h', '10h'];
    for (const [i, by] of schedule.entries()) {
      const [before] = await deliveries(sb);
      expect(before?.status).toBe('pending');
      await advance(sb, by);
      await sb.deps.webhooks.idle();
      expect(rx.received).toHaveLength(i + 2);
    }
    const [delivery] = await deliveries(sb);
    expect(delivery?.status).toBe('failed');
    expect(delivery?.next_attempt_at).toBeNull();
    expect(delivery?.attempts).toHaveLength(8);
    expect(delivery?.attempts.at(-1)?.next_attempt_at).toBeNull();
    await advance(sb, '30d');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(8);
  });

  it('gives the same history when one long advance covers the whole schedule', async () => {
    const sb = sandbox();
    const rx = await receiver(() => ({ status: 500 }));
    await createEndpoint(sb, { url: rx.url });
    emitEvent(sb, 'loan.error');
    await advance(sb, '3d');
    await sb.deps.webhooks.idle();
    const [delivery] = await deliveries(sb);
    expect(delivery?.status).toBe('failed');
    const offsets = [0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H];
    let at = 0;
    expect(delivery?.attempts.map((a) => a.attempted_at)).toEqual(
      offsets.map((o) => {
        at += o;
        return iso(at);
      }),
    );
  });

  it('honours Retry-After on 429 when it asks for more than the schedule', async () => {
    const sb = sandbox();
    const rx = await receiver((_req, n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '120' } } : { status: 204 },
    );
    await createEndpoint(sb, { url: rx.url });
    emitEvent(sb, 'loan.signed');
    await sb.deps.webhooks.idle();
    const [first] = await deliveries(sb);
    expect(first?.next_attempt_at).toBe(iso(120 * S));
    await advance(sb, '119s');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(1);
    await advance(sb, '1s');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(2);
    expect((await deliveries(sb))[0]?.status).toBe('succeeded');
  });

  it('counts redirects and connection errors as failures', async () => {
    const sb = sandbox();
    const rx = await receiver(() => ({
      status: 302,
      headers: { location: 'https://elsewhere.example.com' },
    }));
    await createEndpoint(sb, { url: rx.url });
    const dead = await receiver();
    const deadUrl = dead.url;
    await dead.close();
    await createEndpoint(sb, { url: deadUrl });
    emitEvent(sb, 'loan.signed');
    await sb.deps.webhooks.idle();
    const log = await deliveries(sb);
    const redirected = log.find((d) => d.attempts[0]?.status_code === 302);
    const refused = log.find((d) => d.attempts[0]?.status_code === null);
    expect(redirected).toMatchObject({ status: 'pending', next_attempt_at: iso(5 * S) });
    expect(redirected?.attempts[0]?.error).toMatch(/redirect/i);
    expect(refused).toMatchObject({ status: 'pending', next_attempt_at: iso(5 * S) });
    expect(refused?.attempts[0]?.error).toMatch(/ECONNREFUSED/);
  });

  it('disables the endpoint on 410 Gone and stops retrying', async () => {
    const sb = sandbox();
    const rx = await receiver(() => ({ status: 410 }));
    const ep = await createEndpoint(sb, { url: rx.url });
    emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    const endpoint = await sb.json<{ status: string }>('GET', `/v3/webhooks/endpoints/${ep.id}`);
    expect(endpoint.body.status).toBe('disabled');
    const [delivery] = await deliveries(sb);
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(delivery?.attempts[0]).toMatchObject({ status_code: 410, next_attempt_at: null });
    emitEvent(sb, 'customer.active');
    await advance(sb, '2d');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(1);
  });

  it('deleting an endpoint cancels its pending retries', async () => {
    const sb = sandbox();
    const rx = await receiver(() => ({ status: 500 }));
    const ep = await createEndpoint(sb, { url: rx.url });
    emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    const attemptJobs = () =>
      sb.deps.engine.scheduler.pending(DEFAULT_PARTNER_ID).filter((j) => j.kind === 'webhook.attempt');
    expect(attemptJobs()).toHaveLength(1);
    await sb.json('DELETE', `/v3/webhooks/endpoints/${ep.id}`);
    expect(attemptJobs()).toHaveLength(0);
    await advance(sb, '2d');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(1);
    const [delivery] = await deliveries(sb, `&endpoint_id=${ep.id}`);
    expect(delivery).toMatchObject({ status: 'cancelled', next_attempt_at: null });
  });
});

describe('a slow receiver', () => {
  // The receiver answers only when the test opens its gate, and the attempt's own time limit is
  // far away: the emitting call and the log read can only answer if they never wait for it.
  it('never slows the API call that emitted the event nor a read of the log', async () => {
    const sb = sandbox({ webhookTimeoutMs: 10 * M });
    const answer = gate();
    const rx = await receiver(() => ({ status: 200, until: answer.opened }));
    await createEndpoint(sb, { url: rx.url });
    // A timed job emits the event inside the advance, as lifecycle modules do.
    sb.deps.engine.handle(
      'test.emit',
      (ctx) => {
        ctx.emit('loan.disbursing', { ...sampleEventData('loan.disbursing'), id: 'ln_1' });
      },
      jsonObject,
    );
    sb.deps.engine.context(DEFAULT_PARTNER_ID).schedule('test.emit', {}, T0 + S);

    const res = await sb.json('POST', '/v3/sandbox/clock/advance', { body: { by: '2s' } });
    expect(res.status).toBe(200);
    await rx.arrived(1);
    const [inFlight] = await deliveries(sb);
    expect(inFlight).toMatchObject({ status: 'sending', next_attempt_at: iso(S), attempts: [] });

    answer.open();
    await sb.deps.webhooks.idle();
    const [delivery] = await deliveries(sb);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: [{ attempted_at: iso(S), status_code: 200 }],
    });
  });

  it('times the attempt out after the configured limit and schedules a retry', async () => {
    const sb = sandbox({ webhookTimeoutMs: 1000 });
    // Never answered: only the attempt's limit can end it.
    const rx = await receiver(() => ({ status: 200, until: NEVER }));
    await createEndpoint(sb, { url: rx.url });
    emitEvent(sb, 'loan.disbursing', { ...sampleEventData('loan.disbursing'), id: 'ln_1' });
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(1);
    const [delivery] = await deliveries(sb);
    expect(delivery?.status).toBe('pending');
    expect(delivery?.attempts[0]).toMatchObject({
      attempted_at: iso(0),
      status_code: null,
      error: 'timed out after 1000 ms without a complete answer',
      next_attempt_at: iso(5 * S),
    });
    expect(delivery?.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(950);
  });
});

describe('GET /v3/sandbox/deliveries', () => {
  it('filters by event_id, endpoint_id and status, newest first, paginated', async () => {
    const sb = sandbox();
    const ok = await receiver();
    const failing = await receiver(() => ({ status: 500 }));
    const a = await createEndpoint(sb, { url: ok.url });
    const b = await createEndpoint(sb, { url: failing.url });
    const e1 = emitEvent(sb, 'customer.created');
    const e2 = emitEvent(sb, 'customer.active');
    await sb.deps.webhooks.idle();

    const all = await deliveries(sb);
    expect(all).toHaveLength(4);
    expect(all.map((d) => [d.event_id, d.endpoint_id])).toEqual([
      [e2.id, b.id],
      [e2.id, a.id],
      [e1.id, b.id],
      [e1.id, a.id],
    ]);
    expect((await deliveries(sb, `&event_id=${e1.id}`)).map((d) => d.endpoint_id)).toEqual([b.id, a.id]);
    expect((await deliveries(sb, `&endpoint_id=${a.id}`)).map((d) => d.event_id)).toEqual([e2.id, e1.id]);
    expect((await deliveries(sb, '&status=pending')).map((d) => d.endpoint_id)).toEqual([b.id, b.id]);
    expect(await deliveries(sb, `&status=succeeded&endpoint_id=${b.id}`)).toEqual([]);
    expect((await deliveries(sb, `&event_id=${e2.id}&endpoint_id=${a.id}`)).map((d) => d.id)).toEqual([
      all[1]?.id,
    ]);

    const page1 = await sb.json<{ data: DeliveryBody[]; has_more: boolean }>(
      'GET',
      '/v3/sandbox/deliveries?limit=3',
    );
    expect(page1.body.has_more).toBe(true);
    const page2 = await sb.json<{ data: DeliveryBody[]; has_more: boolean }>(
      'GET',
      `/v3/sandbox/deliveries?limit=3&starting_after=${page1.body.data[2]?.id}`,
    );
    expect(page2.body).toEqual({ data: [all[3]], has_more: false });

    const badStatus = await sb.json('GET', '/v3/sandbox/deliveries?status=lost');
    expect(badStatus.status).toBe(400);
    const other = await newPartnerToken(sb);
    const theirs = await sb.json<{ data: unknown[] }>('GET', '/v3/sandbox/deliveries', {
      token: other.token,
    });
    expect(theirs.body.data).toEqual([]);
  });
});

describe('POST /v3/sandbox/events/{id}/redeliver', () => {
  it('sends the event again, same webhook-id, to every active matching endpoint', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const a = await createEndpoint(sb, { url: rx.url, events: ['customer.*'] });
    const b = await createEndpoint(sb, { url: rx.url });
    await createEndpoint(sb, { url: rx.url, events: ['loan.*'] });
    const event = emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(2);
    await advance(sb, '1h');

    const res = await sb.json<{ event_id: string; deliveries: DeliveryBody[] }>(
      'POST',
      `/v3/sandbox/events/${event.id}/redeliver`,
    );
    expect(res.status).toBe(202);
    expect(res.body.event_id).toBe(event.id);
    expect(res.body.deliveries.map((d) => [d.endpoint_id, d.trigger, d.status]).sort()).toEqual(
      [
        [a.id, 'redeliver', 'pending'],
        [b.id, 'redeliver', 'pending'],
      ].sort(),
    );
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(4);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
    // The body is the original event, timestamp included; the attempt is at the current time.
    expect(JSON.parse(rx.received[3]?.body ?? '').timestamp).toBe(iso(0));
    const redelivered = await deliveries(sb, `&event_id=${event.id}`);
    expect(
      redelivered.filter((d) => d.trigger === 'redeliver').map((d) => d.attempts[0]?.attempted_at),
    ).toEqual([iso(H), iso(H)]);
  });

  it('sends to one given endpoint even if its patterns do not match; 404 unknown, 422 disabled', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const loans = await createEndpoint(sb, { url: rx.url, events: ['loan.*'] });
    const event = emitEvent(sb, 'customer.created');
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(0);

    const one = await sb.json<{ deliveries: DeliveryBody[] }>(
      'POST',
      `/v3/sandbox/events/${event.id}/redeliver`,
      {
        body: { endpoint_id: loans.id },
      },
    );
    expect(one.status).toBe(202);
    expect(one.body.deliveries).toHaveLength(1);
    await sb.deps.webhooks.idle();
    expect(rx.received).toHaveLength(1);

    const unknown = await sb.json('POST', `/v3/sandbox/events/${event.id}/redeliver`, {
      body: { endpoint_id: 'we_nope' },
    });
    expect(unknown.status).toBe(404);
    await sb.json('PATCH', `/v3/webhooks/endpoints/${loans.id}`, { body: { status: 'disabled' } });
    const disabled = await sb.json('POST', `/v3/sandbox/events/${event.id}/redeliver`, {
      body: { endpoint_id: loans.id },
    });
    expect(disabled.status).toBe(422);
    expect(disabled.body).toMatchObject({ code: 'webhook_endpoint_disabled', param: 'endpoint_id' });
    const noEvent = await sb.json('POST', '/v3/sandbox/events/evt_nope/redeliver');
    expect(noEvent.status).toBe(404);
    const other = await newPartnerToken(sb);
    const foreign = await sb.json('POST', `/v3/sandbox/events/${event.id}/redeliver`, { token: other.token });
    expect(foreign.status).toBe(404);
  });
});

describe('restart', () => {
  it('sends an attempt that was in flight during a restart again, with the same webhook-id', async () => {
    // The first attempt is never answered nor timed out: it is in flight when the state is taken.
    const before = sandbox({ webhookTimeoutMs: 10 * M });
    const rx = await receiver((_req, n) => (n === 0 ? { status: 200, until: NEVER } : { status: 200 }));
    await createEndpoint(before, { url: rx.url });
    const event = emitEvent(before, 'customer.created');
    await rx.arrived(1);
    expect((await deliveries(before))[0]?.status).toBe('sending');

    // What --data FILE would hold at this moment, restored into a fresh process.
    const snapshot = JSON.parse(JSON.stringify(before.deps.store.snapshot())) as Snapshot;
    before.deps.engine.stop();
    const store = new Store('restored');
    store.restore(snapshot);
    const after = sandbox({}, store);
    await after.deps.webhooks.idle();

    expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    const [delivery] = await deliveries(after);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: [{ attempted_at: iso(0), status_code: 200 }],
    });
  });
});
