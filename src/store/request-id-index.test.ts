import { describe, expect, it } from 'vitest';
import { RequestIdIndex } from './request-id-index.js';
import { RequestRing } from './request-ring.js';

function ringOf(partnerId: string, ids: string[]): RequestRing {
  const ring = new RequestRing(partnerId, 4, (text) => text);
  for (const [n, id] of ids.entries()) {
    ring.push({
      id,
      seq: n + 1,
      partner_id: partnerId,
      method: 'GET',
      path: '/v3/sandbox/clock',
      query: null,
      status: 200,
      duration_cms: 1,
      idempotency_key: null,
      idempotent_replayed: false,
      error_code: null,
      authorization: null,
      content_type: null,
      user_agent: null,
      request_body: null,
      response_text: '{}',
      created_at_ms: 0,
    });
  }
  return ring;
}

describe('the request id index', () => {
  it('keeps no ring of a partner that left, even when nobody reads the log', () => {
    const live = new Map<string, RequestRing>();
    const index = new RequestIdIndex((ring) => live.get(ring.partnerId) === ring);
    const kept = ringOf('ptn_kept', ['req_kept']);
    live.set('ptn_kept', kept);
    index.queue(kept);
    // A sandbox running for months: partners come, send a request or two, and go; nobody reads.
    for (let n = 0; n < 10_000; n++) {
      const ring = ringOf(`ptn_${n}`, [`req_${n}_a`, `req_${n}_b`]);
      live.set(ring.partnerId, ring);
      index.queue(ring);
      live.delete(ring.partnerId);
      index.drop(ring);
      expect(index.backlog).toBeLessThanOrEqual(2 * 64 + 2);
    }
    // What is left still answers.
    index.catchUp(live.values(), 1);
    expect(index.find('req_kept')).toEqual({ ring: kept, position: 0 });
    expect(index.find('req_9999_a')).toBeUndefined();
    expect(index.backlog).toBe(0);
  });

  it('forgets the ids of a ring that left at once, indexed or not', () => {
    const live = new Map<string, RequestRing>();
    const index = new RequestIdIndex((ring) => live.get(ring.partnerId) === ring);
    const ring = ringOf('ptn_a', ['req_1', 'req_2']);
    live.set('ptn_a', ring);
    index.queue(ring);
    index.catchUp(live.values(), 2);
    expect(index.find('req_2')?.position).toBe(1);
    live.delete('ptn_a');
    index.drop(ring);
    // Back again under the same partner (a takeover): the old ring's ids point nowhere.
    const again = ringOf('ptn_a', ['req_3']);
    live.set('ptn_a', again);
    index.queue(again);
    index.catchUp(live.values(), 1);
    expect(index.find('req_1')).toBeUndefined();
    expect(index.find('req_3')).toEqual({ ring: again, position: 0 });
  });
});
