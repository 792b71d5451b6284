import { describe, expect, it } from 'vitest';
import { deletePartnerData } from './partner-rows.js';
import { Store } from './store.js';

describe('seeded stream positions in the store', () => {
  it("keeps a partner's position as a row of the partner, other streams in the meta", () => {
    const store = new Store('key');
    store.trackChanges();
    store.setRandomCounter('partner:ptn_a', 3);
    store.setRandomCounter('partner:ptn_a', 4);
    store.setRandomCounter('server', 2);
    expect(store.randomCounter('partner:ptn_a')).toBe(4);
    expect(store.randomCounter('server')).toBe(2);
    expect(store.randomCounter('partner:ptn_b')).toBe(0);
    const changes = store.takeChangeSet();
    expect(changes.tables.random_counters?.upserts).toEqual([
      { id: 'partner:ptn_a', partner_id: 'ptn_a', draws: 4 },
    ]);
    expect(changes.meta.random_counters).toEqual({ server: 2 });
  });

  it('moves with the partner: evicted with it, and kept by a reset (a restarted stream would repeat ids)', () => {
    const store = new Store('key');
    store.setRandomCounter('partner:ptn_a', 9);
    deletePartnerData(store, 'ptn_a');
    expect(store.randomCounter('partner:ptn_a')).toBe(9);
    store.evictPartner('ptn_a');
    expect(store.randomCounter('partner:ptn_a')).toBe(0);
  });

  it('reads on from a position a file written before kept in the meta', () => {
    const store = new Store('key');
    store.restore({
      version: 1,
      meta: { seq: 0, signing_key: 'k', random_counters: { 'partner:ptn_a': 7 } },
      tables: {},
    });
    expect(store.randomCounter('partner:ptn_a')).toBe(7);
    store.setRandomCounter('partner:ptn_a', 8);
    expect(store.randomCounter('partner:ptn_a')).toBe(8);
  });
});
