import { describe, expect, it } from 'vitest';
import { changeSetSize, isEmptyChangeSet } from './change-set.js';
import { Store } from './store.js';

function partner(store: Store, id: string, name = id) {
  return {
    id,
    seq: store.nextSeq(),
    name,
    created_at: '2026-01-01T00:00:00.000Z',
    clock: { offset_ms: 0, frozen_at_ms: 1 },
  };
}

describe('change sets', () => {
  it('records nothing until a backend turns tracking on', () => {
    const store = new Store('key');
    store.partners.insert(partner(store, 'ptn_a'));
    expect(isEmptyChangeSet(store.takeChangeSet())).toBe(true);
  });

  it('carries the latest version of inserted and updated rows and the ids of deleted rows, once', () => {
    const store = new Store('key');
    store.trackChanges();
    store.partners.insert(partner(store, 'ptn_a'));
    store.partners.insert(partner(store, 'ptn_b'));
    store.partners.update('ptn_a', (row) => ({ ...row, name: 'renamed' }));
    store.partners.delete('ptn_b');

    const changes = store.takeChangeSet();
    expect(changes.tables.partners?.upserts).toEqual([
      expect.objectContaining({ id: 'ptn_a', name: 'renamed' }),
    ]);
    expect(changes.tables.partners?.deletes).toEqual(['ptn_b']);
    expect(changes.meta.seq).toBe(2);
    expect(changeSetSize(changes)).toBe(2);
    expect(isEmptyChangeSet(store.takeChangeSet())).toBe(true);
  });

  it('replays into another store to the same world, without re-recording the replay', () => {
    const source = new Store('key');
    source.trackChanges();
    source.partners.insert(partner(source, 'ptn_a'));
    source.partners.insert(partner(source, 'ptn_b'));
    const first = source.takeChangeSet();
    source.partners.update('ptn_a', (row) => ({ ...row, name: 'renamed' }));
    source.partners.delete('ptn_b');
    const second = source.takeChangeSet();

    const target = new Store('other');
    target.trackChanges();
    target.applyChangeSet(first);
    target.applyChangeSet(second);
    expect(target.snapshot()).toEqual(source.snapshot());
    expect(isEmptyChangeSet(target.takeChangeSet())).toBe(true);
  });
});
