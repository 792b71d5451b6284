import { describe, expect, it } from 'vitest';
import { addPartner, customerRow } from './journal/test-helpers.js';
import { Store } from './store.js';

/** A store tracking changes with undo, whose partner ptn_a and customer cust_1 are durable. */
function durableStore(): Store {
  const store = new Store('key');
  store.trackChanges({ undo: true });
  addPartner(store, 'ptn_a');
  store.customers.insert(customerRow(store, 'cust_1', 'ptn_a', 'Durable'));
  store.settle(store.takeChangeSet());
  return store;
}

function names(store: Store): (string | null)[] {
  return store.customerIdx.sorted.name.all
    .rows('ptn_a')
    .map((row) => row.name)
    .sort();
}

describe('rolling back what was not written', () => {
  it('puts inserted, updated and deleted rows back as the last durable write left them, indexes included', () => {
    const store = durableStore();
    store.customers.insert(customerRow(store, 'cust_2', 'ptn_a', 'Ghost'));
    store.customers.update('cust_1', (row) => ({ ...row, name: 'Changed' }));
    addPartner(store, 'ptn_b');
    const taken = store.takeChangeSet(); // the write that fails
    store.customers.delete('cust_1'); // a change made while it was being written
    expect(taken.tables.customers?.upserts).toHaveLength(2);

    expect(store.rollBack()).toBe(3);
    expect(names(store)).toEqual(['Durable']);
    expect(store.customers.get('cust_2')).toBeUndefined();
    expect(store.partners.get('ptn_b')).toBeUndefined();
    expect(store.customerIdx.byCpf.get('ptn_a|cpf-cust_2')).toBeUndefined();
    // Nothing is left to write: the world is what is durable.
    const after = store.takeChangeSet();
    expect(after.tables).toEqual({});
  });

  it('after a successful write, rolls back only what changed since', () => {
    const store = durableStore();
    store.customers.update('cust_1', (row) => ({ ...row, name: 'Written' }));
    const first = store.takeChangeSet();
    store.customers.update('cust_1', (row) => ({ ...row, name: 'Lost' }));
    store.settle(first); // the first write is durable; the second change is pending
    store.rollBack();
    expect(names(store)).toEqual(['Written']);
  });

  it('keeps no undo once every change is written, and none without undo tracking', () => {
    const store = durableStore();
    store.customers.update('cust_1', (row) => ({ ...row, name: 'Written' }));
    store.settle(store.takeChangeSet());
    expect(store.rollBack()).toBe(0);
    expect(names(store)).toEqual(['Written']);

    const plain = new Store('key');
    plain.trackChanges();
    addPartner(plain, 'ptn_a');
    expect(plain.rollBack()).toBe(0);
    expect(plain.partners.get('ptn_a')).toBeDefined();
  });

  it('forgets the undo of rows evicted from memory (their durable version lives elsewhere)', () => {
    const store = durableStore();
    store.customers.update('cust_1', (row) => ({ ...row, name: 'Changed' }));
    store.evictPartner('ptn_a');
    expect(store.rollBack()).toBe(0);
    expect(store.customers.get('cust_1')).toBeUndefined();
  });
});
