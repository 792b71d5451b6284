import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { AttemptResult, PreparedAttempt } from './deliveries.js';
import { WebhookDispatcher } from './dispatcher.js';
import type { OutgoingWebhook, ReceiverAnswer } from './sender.js';

const SECRET = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
const REAL_NOW = Date.parse('2026-11-21T10:00:00Z');

function attempt(n: number, secrets = [SECRET]): PreparedAttempt {
  return {
    partnerId: 'ptn_1',
    deliveryId: `dlv_${n}`,
    attemptNumber: 1,
    dueAtMs: 0,
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
  extra: { timeoutMs?: number; concurrency?: number } = {},
) {
  const recorded: [PreparedAttempt, AttemptResult][] = [];
  let clock = 0;
  const d = new WebhookDispatcher({
    send,
    record: (a, r) => recorded.push([a, r]),
    realNow: () => REAL_NOW,
    timeoutMs: extra.timeoutMs ?? 10_000,
    concurrency: extra.concurrency,
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
    calls[0]!.answer({ statusCode: 429, retryAfter: '30' });
    await d.settled();
    expect(recorded[0]?.[1]).toEqual({ statusCode: 429, durationMs: 7, error: null, retryAfterSeconds: 30 });
  });

  it('keeps at most `concurrency` attempts in flight; the rest wait their turn in order', async () => {
    const { calls, send } = manualSender();
    const { d, recorded } = dispatcher(send, { concurrency: 2 });
    for (let n = 1; n <= 5; n++) d.dispatch(attempt(n));
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_1', 'evt_2']);
    expect(d.pending).toBe(5);
    calls[1]!.answer({ statusCode: 200, retryAfter: null });
    await new Promise((r) => setImmediate(r));
    expect(calls.map((c) => c.webhook.headers['webhook-id'])).toEqual(['evt_1', 'evt_2', 'evt_3']);
    for (const call of calls.slice(0)) call.answer({ statusCode: 200, retryAfter: null });
    await new Promise((r) => setImmediate(r));
    for (const call of calls.slice(3)) call.answer({ statusCode: 200, retryAfter: null });
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
});
