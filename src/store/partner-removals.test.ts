import { describe, expect, it } from 'vitest';
import { removePartner } from '../domain/partner-lifetime.js';
import { addPartner, customerRow } from './journal/test-helpers.js';
import { Store } from './store.js';

/** A journal-like store (undo tracking) whose partner ptn_a and customer cust_1 are durable. */
function durableStore(): { store: Store; restored: string[] } {
  const store = new Store('key');
  store.trackChanges({ undo: true });
  addPartner(store, 'ptn_a');
  store.customers.insert(customerRow(store, 'cust_1', 'ptn_a', 'Durable'));
  store.settle(store.takeChangeSet());
  const restored: string[] = [];
  store.removals.onRestored((id) => restored.push(id));
  return { store, restored };
}

describe('a partner removal that could not be written', () => {
  it('puts the partner back as the last durable write left it, without tombstones, and says so', () => {
    const { store, restored } = durableStore();
    store.customers.insert(customerRow(store, 'cust_2', 'ptn_a', 'Never written'));
    store.customers.update('cust_1', (row) => ({ ...row, name: 'Changed' }));
    removePartner(store, 'ptn_a', 'deleted', 1_000);
    expect(store.partners.get('ptn_a')).toBeUndefined();
    const failed = store.takeChangeSet();
    expect(failed.purged).toEqual(['ptn_a']);

    store.rollBack();
    expect(store.partners.get('ptn_a')).toBeDefined();
    expect(store.customers.get('cust_1')?.name).toBe('Durable');
    expect(store.customers.get('cust_2')).toBeUndefined();
    expect(store.customerIdx.byCpf.get('ptn_a|cpf-cust_1')?.id).toBe('cust_1');
    expect(store.tombstones.get('ptn_a')).toBeUndefined();
    expect(restored).toEqual(['ptn_a']);
    // Nothing is left to write: the next change set removes nobody.
    const next = store.takeChangeSet();
    expect(next.purged).toBeUndefined();
    expect(next.tables).toEqual({});
  });

  it('is final once written: a later rollback does not bring the partner back', () => {
    const { store, restored } = durableStore();
    removePartner(store, 'ptn_a', 'expired', 1_000);
    store.settle(store.takeChangeSet());
    addPartner(store, 'ptn_b');
    store.takeChangeSet(); // a later write that fails

    store.rollBack();
    expect(store.partners.get('ptn_a')).toBeUndefined();
    expect(store.customers.get('cust_1')).toBeUndefined();
    expect(store.partners.get('ptn_b')).toBeUndefined();
    expect(store.tombstones.get('ptn_a')?.reason).toBe('expired');
    expect(restored).toEqual([]);
  });

  it('keeps no undo without undo tracking (the database reloads what it holds instead)', () => {
    const store = new Store('key');
    store.trackChanges();
    addPartner(store, 'ptn_a');
    store.customers.insert(customerRow(store, 'cust_1', 'ptn_a', 'Written'));
    store.takeChangeSet();
    removePartner(store, 'ptn_a', 'deleted', 1_000);
    expect(store.takeChangeSet().purged).toEqual(['ptn_a']);
    expect(store.rollBack()).toBe(0);
    expect(store.partners.get('ptn_a')).toBeUndefined();
  });
});
