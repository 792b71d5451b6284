import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ChangeSet } from '../change-set.js';
import { customerRow } from '../journal/test-helpers.js';
import { StorageUnavailableError } from '../storage-health.js';
import { Store } from '../store.js';
import { splitRemovals } from './change-parts.js';
import { PostgresPersistence } from './postgres-persistence.js';

// A delete carries only the row's id, so a change set that only deletes (a timer's sweep, with no
// request row beside it) named no partner, and a flush the database refused left the deletion
// applied in memory while the database kept the row. Now each deleted row's partner travels with
// the change set, and a refused flush drops that partner from memory like any other (it is
// reloaded from the database on its next request).
describe('a refused change that only deletes', () => {
  it('names the partners whose rows it deletes', () => {
    const store = new Store('test');
    store.trackChanges();
    store.customers.insert(customerRow(store, 'cust_a', 'ptn_a', 'Ana'));
    expect(store.takeChangeSet().deleters).toBeUndefined();
    store.customers.delete('cust_a');
    const changes = store.takeChangeSet();
    expect(changes.tables.customers?.deletes).toEqual(['cust_a']);
    expect(changes.deleters).toEqual(['ptn_a']);
  });

  it('leaves pruned tombstones out: they outlive their partner, whom no instance holds', () => {
    const store = new Store('test');
    store.trackChanges();
    store.tombstones.insert({
      id: 'ptn_gone',
      seq: store.nextSeq(),
      partner_id: 'ptn_gone',
      reason: 'expired',
      gone_at_ms: 0,
    });
    store.takeChangeSet();
    store.tombstones.delete('ptn_gone');
    const changes = store.takeChangeSet();
    expect(changes.tables.partner_tombstones?.deletes).toEqual(['ptn_gone']);
    expect(changes.deleters).toBeUndefined();
  });

  it('leaves out the partners the same change removes: the removal covers their rows and leases', () => {
    const changes: ChangeSet = {
      meta: new Store('test').meta,
      tables: { customers: { upserts: [], deletes: ['cust_x', 'cust_y'] } },
      purged: ['ptn_x'],
      deleters: ['ptn_x', 'ptn_y'],
    };
    expect(splitRemovals(changes)?.rest.deleters).toEqual(['ptn_y']);
    expect(splitRemovals({ ...changes, deleters: ['ptn_x'] })?.rest.deleters).toBeUndefined();
  });

  it('drops that partner from memory when PostgreSQL cannot be reached', async () => {
    const store = new Store('test');
    // Nothing listens on port 1 of the loopback: every connection is refused at once.
    const pool = new pg.Pool({ connectionString: 'postgres://sandbox@127.0.0.1:1/none' });
    const persistence = new PostgresPersistence(pool, store);
    try {
      store.customers.insert(customerRow(store, 'cust_a', 'ptn_a', 'Ana'));
      store.customers.insert(customerRow(store, 'cust_b', 'ptn_a', 'Bia'));
      store.customers.insert(customerRow(store, 'cust_c', 'ptn_c', 'Cris'));
      store.takeChangeSet(); // as if written
      store.customers.delete('cust_a');
      await expect(persistence.flush()).rejects.toBeInstanceOf(StorageUnavailableError);
      // ptn_a left memory whole (reloaded from the database, where cust_a still is); ptn_c stays.
      expect([store.customers.get('cust_b'), store.customers.get('cust_c')?.id]).toEqual([
        undefined,
        'cust_c',
      ]);
    } finally {
      persistence.health.stop();
      await pool.end();
    }
  });
});
