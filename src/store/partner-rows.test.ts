import { describe, expect, it } from 'vitest';
import { customerRow } from './journal/test-helpers.js';
import { deletePartnerData } from './partner-rows.js';
import { Store } from './store.js';

/** A customer row that counts how often its `partner_id` is read. */
function watchedRow(store: Store, id: string, partnerId: string, reads: { n: number }) {
  const row = customerRow(store, id, partnerId, `Customer ${id}`);
  return Object.defineProperty(row, 'partner_id', {
    enumerable: true,
    get: () => {
      reads.n++;
      return partnerId;
    },
  });
}

describe("a reset deletes the partner's rows", () => {
  it('deletes them, records the deletes, and leaves the other partners alone', () => {
    const store = new Store('key');
    store.trackChanges();
    store.customers.insert(customerRow(store, 'cust_a1', 'ptn_a', 'Ana'));
    store.customers.insert(customerRow(store, 'cust_a2', 'ptn_a', 'Bia'));
    store.customers.insert(customerRow(store, 'cust_b1', 'ptn_b', 'Caio'));
    store.takeChangeSet();

    expect(deletePartnerData(store, 'ptn_a')).toBe(2);

    expect(store.customers.get('cust_a1')).toBeUndefined();
    expect(store.customers.get('cust_a2')).toBeUndefined();
    expect(store.customers.get('cust_b1')?.partner_id).toBe('ptn_b');
    expect(store.customers.partnerCount('ptn_a')).toBe(0);
    expect(store.takeChangeSet().tables.customers?.deletes.sort()).toEqual(['cust_a1', 'cust_a2']);
  });

  it("never looks at another partner's rows (in the partner's size, not the instance's)", () => {
    const store = new Store('key');
    const reads = { n: 0 };
    for (let i = 0; i < 500; i++) store.customers.insert(watchedRow(store, `cust_b${i}`, 'ptn_b', reads));
    store.customers.insert(customerRow(store, 'cust_a1', 'ptn_a', 'Ana'));
    reads.n = 0;

    expect(deletePartnerData(store, 'ptn_a')).toBe(1);

    expect(reads.n).toBe(0);
    expect(store.customers.partnerCount('ptn_b')).toBe(500);
  });
});
