import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { removePartner } from '../../domain/partner-lifetime.js';
import { mergeChangeSets } from '../postgres/rows.js';
import { Store } from '../store.js';
import { journalPaths } from './files.js';
import { JournalPersistence } from './journal-persistence.js';
import { addPartner, tempDataFile } from './test-helpers.js';

/** A partner with a credential, a few events and a job: rows in several tables. */
function addWorld(store: Store, id: string, events = 3): void {
  addPartner(store, id);
  store.credentials.insert({
    id: `cid_${id}`,
    seq: store.nextSeq(),
    partner_id: id,
    name: 'default',
    secret_hash: 'x',
    status: 'active',
    created_at: '2026-01-01T00:00:00.000Z',
    revoked_at: null,
  });
  for (let i = 0; i < events; i++) {
    store.events.insert({
      id: `evt_${id}_${i}`,
      seq: store.nextSeq(),
      partner_id: id,
      type: 'customer.created',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { padding: 'x'.repeat(200) },
    });
  }
  store.jobs.insert({
    id: `job_${id}`,
    seq: store.nextSeq(),
    partner_id: id,
    kind: 'k',
    due_at_ms: 1,
    payload: {},
  });
}

function rowsOf(store: Store, partnerId: string): number {
  let n = 0;
  for (const name of store.tableNames()) {
    if (name === 'partner_tombstones') continue;
    n += store
      .dumpTable(name)
      .filter((row) => ((row as { partner_id?: string }).partner_id ?? row.id) === partnerId).length;
  }
  return n;
}

describe('removing a partner with --data', () => {
  it('writes the removal as one journal entry naming the partner, replayed after a restart', async () => {
    const path = tempDataFile();
    const store = new Store('key');
    const { persistence } = await JournalPersistence.open(path, store);
    addWorld(store, 'ptn_gone');
    addWorld(store, 'ptn_kept');
    await persistence.flush();
    const before = readFileSync(journalPaths(path).journal).length;
    removePartner(store, 'ptn_gone', 'deleted', Date.parse('2026-03-02T12:00:00Z'));
    await persistence.close();
    const line = readFileSync(journalPaths(path).journal).subarray(before).toString('utf8');
    // One line: the partner named once, its tombstones; no row of it listed one by one.
    expect(line.split('\n').filter(Boolean)).toHaveLength(1);
    expect(line).toContain('"purged":["ptn_gone"]');
    expect(line).not.toContain('evt_ptn_gone');

    const again = new Store('other');
    const reopened = await JournalPersistence.open(path, again);
    expect(rowsOf(again, 'ptn_gone')).toBe(0);
    expect(rowsOf(again, 'ptn_kept')).toBe(rowsOf(store, 'ptn_kept'));
    expect(again.tombstones.get('ptn_gone')).toMatchObject({ reason: 'deleted', partner_id: 'ptn_gone' });
    expect(again.tombstones.get('cid_ptn_gone')).toMatchObject({ partner_id: 'ptn_gone' });
    await reopened.persistence.close();
  });

  it('leaves the partner whole or gone when a crash cuts the removal at any byte', async () => {
    const path = tempDataFile();
    const store = new Store('key');
    const { persistence } = await JournalPersistence.open(path, store);
    addWorld(store, 'ptn_gone');
    await persistence.flush();
    const whole = rowsOf(store, 'ptn_gone');
    const kept = readFileSync(journalPaths(path).journal);
    removePartner(store, 'ptn_gone', 'deleted', 0);
    await persistence.close();
    const bytes = readFileSync(journalPaths(path).journal);
    for (let cut = kept.length; cut <= bytes.length; cut++) {
      const copy = tempDataFile();
      writeFileSync(journalPaths(copy).journal, bytes.subarray(0, cut));
      const restored = new Store('k');
      const opened = await JournalPersistence.open(copy, restored);
      const rows = rowsOf(restored, 'ptn_gone');
      if (cut === bytes.length) {
        expect(rows, `cut at ${cut}`).toBe(0);
        expect(restored.tombstones.get('ptn_gone')).toBeDefined();
      } else {
        expect(rows, `cut at ${cut}`).toBe(whole);
        expect(restored.tombstones.size).toBe(0);
      }
      await opened.persistence.close();
    }
  }, 60_000);

  it('shrinks the files at the next compaction: the snapshot holds only the live partners', async () => {
    const path = tempDataFile();
    const store = new Store('key');
    const { persistence } = await JournalPersistence.open(path, store, {
      compactMinBytes: Number.MAX_SAFE_INTEGER,
    });
    for (let i = 0; i < 40; i++) addWorld(store, `ptn_${i}`, 20);
    await persistence.flush();
    await persistence.compact();
    const full = statSync(path).size;
    for (let i = 1; i < 40; i++) removePartner(store, `ptn_${i}`, 'expired', 0);
    await persistence.flush();
    expect(statSync(journalPaths(path).journal).size).toBeGreaterThan(0);
    await persistence.compact();
    const live = statSync(path).size;
    expect(statSync(journalPaths(path).journal).size).toBe(0);
    // One partner of 40 left, plus 39 small tombstone pairs.
    expect(live).toBeLessThan(full / 10);
    await persistence.close();
    const again = new Store('k');
    const reopened = await JournalPersistence.open(path, again);
    expect(again.partners.size).toBe(1);
    expect(rowsOf(again, 'ptn_7')).toBe(0);
    await reopened.persistence.close();
  });

  it("folds a removal into earlier unwritten changes: the partner's earlier rows are not written back", () => {
    const store = new Store('key');
    store.trackChanges();
    addWorld(store, 'ptn_a');
    addWorld(store, 'ptn_b');
    const earlier = store.takeChangeSet();
    removePartner(store, 'ptn_a', 'deleted', 0);
    const merged = mergeChangeSets(earlier, store.takeChangeSet());
    expect(merged.purged).toEqual(['ptn_a']);
    const written = Object.entries(merged.tables).flatMap(([name, t]) =>
      t.upserts.map((row) => [name, (row as { partner_id?: string }).partner_id ?? row.id]),
    );
    expect(written.filter(([name, partner]) => partner === 'ptn_a' && name !== 'partner_tombstones')).toEqual(
      [],
    );
    expect(written.filter(([, partner]) => partner === 'ptn_b').length).toBeGreaterThan(0);
    expect(written.filter(([name]) => name === 'partner_tombstones')).toHaveLength(2);
  });
});
