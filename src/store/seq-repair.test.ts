import { describe, expect, it } from 'vitest';
import { addPartner } from './journal/test-helpers.js';
import type { EventRecord } from './records.js';
import { repairSequence } from './seq-repair.js';
import { Store } from './store.js';

function event(id: string, seq: number, partner = 'ptn_a'): EventRecord {
  return {
    id,
    seq,
    partner_id: partner,
    type: 'customer.created',
    timestamp: '2026-03-02T12:00:00.000Z',
    data: {},
  };
}

const eventIds = (store: Store, partner: string) => store.eventsByPartner.rows(partner).map((e) => e.id);

describe('repairSequence', () => {
  it('leaves a sound store alone', () => {
    const store = new Store('key');
    addPartner(store, 'ptn_a');
    store.events.insert(event('evt_1', store.nextSeq()));
    const before = store.snapshot();
    expect(repairSequence(store)).toBe(0);
    expect(store.snapshot()).toEqual(before);
  });

  it('renumbers rows past the ceiling in their order, above every sound row, and resets the counter', () => {
    const store = new Store('key');
    addPartner(store, 'ptn_a');
    addPartner(store, 'ptn_b');
    store.events.insert(event('evt_sound', 7));
    // An import at 2^53 - 1, then the counter ran past it: equal numbers for later rows.
    store.events.insert(event('evt_imported', Number.MAX_SAFE_INTEGER));
    store.events.insert(event('evt_b1', 2 ** 53, 'ptn_b'));
    store.events.insert(event('evt_b2', 2 ** 53, 'ptn_b'));
    store.events.insert(event('evt_b3', 2 ** 53 + 2, 'ptn_b'));
    store.snapshots.insert({
      id: 'ptn_a old',
      seq: 2 ** 53 + 4,
      partner_id: 'ptn_a',
      name: 'old',
      saved_at: '2026-03-02T12:00:00.000Z',
      bytes: 10,
      world: {
        clock: { now: '2026-03-02T12:00:00.000Z', frozen: true },
        random_draws: null,
        tables: {
          events: [event('evt_x', 2 ** 53 + 6), event('evt_y', 5), event('evt_z', Number.MAX_SAFE_INTEGER)],
        },
      },
    });
    store.meta.seq = 2 ** 53 + 8;
    store.trackChanges();

    expect(repairSequence(store)).toBe(7);
    expect(store.meta.seq).toBe(7 + 7);
    expect(eventIds(store, 'ptn_a')).toEqual(['evt_sound', 'evt_imported']);
    expect(eventIds(store, 'ptn_b')).toEqual(['evt_b1', 'evt_b2', 'evt_b3']);
    const seqs = [...store.events.values()].map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(Math.max(...seqs)).toBeLessThanOrEqual(store.meta.seq);
    const saved = store.snapshots.get('ptn_a old');
    expect(saved?.seq).toBeLessThanOrEqual(store.meta.seq);
    const world = saved?.world.tables.events ?? [];
    expect(world.map((r) => r.id)).toEqual(['evt_x', 'evt_y', 'evt_z']);
    // In the order their numbers gave them: evt_z (2^53 - 1) before evt_x (2^53 + 6).
    expect(world.map((r) => r.seq)).toEqual([14, 5, 13]);
    // Recorded as changes: the next flush saves the repair.
    expect(store.takeChangeSet().tables.events?.upserts).toHaveLength(4);
    expect(store.nextSeq()).toBe(15);
  });

  it('renumbers the request log too, keeping its order', () => {
    const store = new Store('key');
    addPartner(store, 'ptn_a');
    const request = (id: string, seq: number) => ({
      id,
      seq,
      partner_id: 'ptn_a',
      method: 'GET',
      path: '/v3/customers',
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
      created_at_ms: 1,
    });
    store.requests.apply({
      upserts: [request('req_1', 3), request('req_2', 2 ** 53), request('req_3', 2 ** 53 + 2)],
      deletes: [],
    });
    expect(repairSequence(store)).toBe(2);
    const rows = store.dumpTable('requests') as { id: string; seq: number }[];
    expect(rows.map((r) => r.id)).toEqual(['req_1', 'req_2', 'req_3']);
    expect(rows.every((r) => r.seq < 100)).toBe(true);
  });
});
