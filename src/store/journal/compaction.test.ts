import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PartnerRecord } from '../records.js';
import { Store } from '../store.js';
import { journalPaths } from './files.js';
import { type CompactionStep, JournalPersistence } from './journal-persistence.js';
import { addPartner, tempDataFile } from './test-helpers.js';

/** Writers that insert and flush without pause; `acked` holds the ids whose flush resolved. */
function concurrentWriters(store: Store, persistence: JournalPersistence, writers: number, renames: boolean) {
  const acked = new Map<string, PartnerRecord>();
  let next = 0;
  let stop = false;
  const loops = Array.from({ length: writers }, async () => {
    while (!stop) {
      const id = addPartner(store, `ptn_${next++}`);
      if (renames && next % 3 === 0)
        store.partners.update(`ptn_${next - 2}`, (row) => ({ ...row, name: `renamed ${next}` }));
      await persistence.flush();
      acked.set(id, store.partners.get(id) as PartnerRecord);
    }
  });
  return {
    acked,
    stop: async () => {
      stop = true;
      await Promise.all(loops);
    },
  };
}

async function reopen(path: string): Promise<{ store: Store; persistence: JournalPersistence }> {
  const store = new Store('restarted');
  const { persistence, report } = await JournalPersistence.open(path, store);
  expect(report.dropped).toEqual([]);
  return { store, persistence };
}

describe('journal compaction', () => {
  it('loses nothing while concurrent writers keep writing through several compactions', async () => {
    const path = tempDataFile();
    const store = new Store('key');
    const { persistence } = await JournalPersistence.open(path, store, {
      compactMinBytes: 4096,
      chunkBytes: 512,
    });
    const writers = concurrentWriters(store, persistence, 8, true);
    while (persistence.compactions < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await writers.stop();
    await persistence.close();
    expect(writers.acked.size).toBeGreaterThan(50);

    const restarted = await reopen(path);
    expect(restarted.store.snapshot()).toEqual(store.snapshot());
    expect(existsSync(journalPaths(path).compacting)).toBe(false);
    await restarted.persistence.close();
  });

  it('loses nothing when a crash stops a compaction at any step, and the restart finishes it', async () => {
    const path = tempDataFile();
    const store = new Store('key');
    const copies: { step: CompactionStep; dir: string; acked: Map<string, PartnerRecord> }[] = [];
    let writers: ReturnType<typeof concurrentWriters> | undefined;
    const { persistence } = await JournalPersistence.open(path, store, {
      compactMinBytes: Number.MAX_SAFE_INTEGER, // only the compaction this test asks for
      chunkBytes: 256,
      // What a kill -9 at this moment leaves on disk: the files as they are now.
      onCompactionStep: (step) => {
        const dir = mkdtempSync(join(tmpdir(), `credit-sandbox-crash-${step}-`));
        cpSync(dirname(path), dir, { recursive: true });
        copies.push({ step, dir, acked: new Map(writers?.acked) });
      },
    });
    for (let i = 0; i < 40; i++) {
      addPartner(store, `ptn_seed_${i}`);
      await persistence.flush();
    }
    // Inserts only: a crash copy may hold a rename that is durable but not yet acknowledged.
    writers = concurrentWriters(store, persistence, 4, false);
    for (const row of Array.from(store.partners.values())) writers.acked.set(row.id, row);
    await persistence.compact();
    await writers.stop();
    await persistence.close();
    expect(copies.map((c) => c.step)).toEqual(['rotated', 'captured', 'snapshot-replaced', 'done']);

    for (const copy of copies) {
      const files = readdirSync(copy.dir);
      expect(files.includes(`${basename(path)}.journal.compacting`)).toBe(copy.step !== 'done');
      const copyPath = join(copy.dir, basename(path));
      const restarted = await reopen(copyPath);
      for (const [id, row] of copy.acked)
        expect(restarted.store.partners.get(id), `${copy.step}: ${id}`).toEqual(row);
      // The interrupted compaction completes in the background after the restart.
      await restarted.persistence.compact();
      expect(existsSync(journalPaths(copyPath).compacting)).toBe(false);
      const world = restarted.store.snapshot();
      await restarted.persistence.close();
      const again = await reopen(copyPath);
      await again.persistence.close();
      expect(again.store.snapshot()).toEqual(world);
    }
  });
});
