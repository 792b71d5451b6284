import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { AttemptResult, PreparedAttempt } from './attempts.js';
import { WebhookDispatcher } from './dispatcher.js';
import type { OutgoingWebhook, ReceiverAnswer } from './sender.js';

const SECRET = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
const REAL_NOW = Date.parse('2026-11-21T10:00:00Z');

function attempt(
  n: number,
  secrets = [SECRET],
  where: { partnerId?: string; endpointId?: string } = {},
): PreparedAttempt {
  return {
    partnerId: where.partnerId ?? 'ptn_1',
    endpointId: where.endpointId ?? `we_${n}`,
    deliveryId: `dlv_${n}`,
    attemptNumber: 1,
    dueAtMs: 0,
    order: n,
    url: 'https://receiver.test/hooks',
    msgId: `evt_${n}`,
    payload: JSON.stringify({ type: 'loan.active', timestamp: '2026-03-02T12:00:00.000Z', data: { n } }),
    secrets,
  };
}

/** A sender whose answers the test releases by hand. */
function manualSender() {
  const calls: { webhook: OutgoingWebhook; answer: (a: ReceiverAnswer) => void; fail: (e: Error) => void }[] =
    [];
  const send = (webhook: OutgoingWebhook) =>
    new Promise<ReceiverAnswer>((answer, fail) => {
      calls.push({ webhook, answer, fail });
      webhook.signal.addEventListener('abort', () => fail(new Error('aborted')));
    });
  return { calls, send };
}

function dispatcher(
  send: (w: OutgoingWebhook) => Promise<ReceiverAnswer>,
  extra: { timeoutMs?: number; concurrency?: number; perPartner?: number } = {},
) {
  const recorded: [PreparedAttempt, AttemptResult][] = [];
  let clock = 0;
  const d = new WebhookDispatcher({
    send,
    record: (a, r) => recorded.push([a, r]),
    realNow: () => REAL_NOW,
    timeoutMs: extra.timeoutMs ?? 10_000,
    concurrency: extra.concurrency,
    perPartner: extra.perPartner,
    elapsed: () => (clock += 7),
    onError: (m, e) => {
      throw new Error(`${m}: ${String(e)}`);
    },
  });
  return { d, recorded };
}

describe('WebhookDispatcher', () => {
  it('signs with every given secret at the real send time and records the answer', async () => {
    const { calls, send } = manualSender();
    const { d, recorded } = dispatcher(send);
    d.dispatch(attempt(1, [SECRET, OLD_SECRET]));
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    const { webhook } = calls[0]!;
    expect(webhook.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(REAL_NOW / 1000),
    });
    const [sigNew, sigOld] = webhook.headers['webhook-signature']!.split(' ');
    expect(sigNew).toBe(new Webhook(SECRET).sign('evt_1', new Date(REAL_NOW), webhook.body));
    expect(sigOld).toBe(new Webhook(OLD_SECRET).sign('evt_1', new Date(REAL_NOW), webhook.body));
    calls[0]!.answer({ statusCode: 429, retryAfter: '30', body: 'slow down' });
    await d.settled();
    expect(recorded[0]?.[1]).toEqual({
      statusCode: 429,
      durationMs: 7,
      responseBody: 'slow down',
      error: null,
      retryAfterSeconds: 30,
    });
  });

  it('keeps at most `concurrency` attempts in flight; the rest wait their turn in order', async () => {
    const { calls, send } = manualSender();
    const { d, recorded } = dispatcher(send, { concurrency: 2 });
    for (let n = 1; n <= 5; n++) d.dispatch(attempt(n));
    await Promise.resolve();
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_1', 'evt_2']);
    expect(d.pending).toBe(5);
    calls[1]!.answer({ statusCode: 200, retryAfter: null, body: '' });
    await new Promise((r) => setImmediate(r));
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_1', 'evt_2', 'evt_3']);
    for (const call of calls.slice(0)) call.answer({ statusCode: 200, retryAfter: null, body: '' });
    await new Promise((r) => setImmediate(r));
    for (const call of calls.slice(3)) call.answer({ statusCode: 200, retryAfter: null, body: '' });
    await d.settled();
    expect(recorded.map(([a]) => a.msgId).sort()).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']);
    expect(d.pending).toBe(0);
  });

  it('aborts an attempt at the timeout and records it without a status code', async () => {
    const { send } = manualSender();
    const { d, recorded } = dispatcher(send, { timeoutMs: 20 });
    d.dispatch(attempt(1));
    await d.settled();
    expect(recorded[0]?.[1]).toMatchObject({
      statusCode: null,
      error: 'timed out after 20 ms without a complete answer',
      retryAfterSeconds: null,
    });
  });

  it('records connection errors with their system code', async () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const { d, recorded } = dispatcher(() => Promise.reject(new TypeError('fetch failed', { cause })));
    d.dispatch(attempt(1));
    await d.settled();
    expect(recorded[0]?.[1]).toMatchObject({ statusCode: null, error: 'connect ECONNREFUSED 127.0.0.1:9' });
  });

  it('sends one attempt at a time per endpoint, lowest event order first, even when queued out of order', async () => {
    const { calls, send } = manualSender();
    const { d, recorded } = dispatcher(send);
    for (const n of [3, 1, 2]) d.dispatch(attempt(n, [SECRET], { endpointId: 'we_same' }));
    await Promise.resolve();
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_1']);
    for (let i = 0; i < 3; i++) {
      calls[i]!.answer({ statusCode: 200, retryAfter: null, body: '' });
      await new Promise((r) => setImmediate(r));
    }
    await d.settled();
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(recorded.map(([a]) => a.msgId)).toEqual(['evt_1', 'evt_2', 'evt_3']);
  });

  it("bounds one partner's slots, so another partner's attempt goes out while its receivers hang", async () => {
    const { calls, send } = manualSender();
    const { d } = dispatcher(send, { concurrency: 4, perPartner: 2 });
    for (let n = 1; n <= 6; n++) d.dispatch(attempt(n, [SECRET], { partnerId: 'ptn_busy' }));
    d.dispatch(attempt(7, [SECRET], { partnerId: 'ptn_other' }));
    await Promise.resolve();
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_1', 'evt_2', 'evt_7']);
    expect(d.pending).toBe(7);
    for (const call of calls) call.fail(new Error('gone'));
    await new Promise((r) => setImmediate(r));
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual([
      'evt_1',
      'evt_2',
      'evt_7',
      'evt_3',
      'evt_4',
    ]);
    for (const call of calls.slice(3)) call.fail(new Error('gone'));
    await new Promise((r) => setImmediate(r));
    for (const call of calls.slice(5)) call.fail(new Error('gone'));
    await d.settled();
    expect(calls).toHaveLength(7);
  });

  it('drops an attempt unsent when start() says it must not go out', async () => {
    const { calls, send } = manualSender();
    const recorded: string[] = [];
    const d = new WebhookDispatcher({
      send,
      record: (a) => recorded.push(a.msgId),
      start: (a) => a.msgId !== 'evt_1',
      realNow: () => REAL_NOW,
      timeoutMs: 1000,
      onError: (m) => {
        throw new Error(m);
      },
    });
    d.dispatch(attempt(1, [SECRET], { endpointId: 'we_same' }));
    d.dispatch(attempt(2, [SECRET], { endpointId: 'we_same' }));
    await Promise.resolve();
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_2']);
    calls[0]!.answer({ statusCode: 204, retryAfter: null, body: '' });
    await d.settled();
    expect(recorded).toEqual(['evt_2']);
  });
});
