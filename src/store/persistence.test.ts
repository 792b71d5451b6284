import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FilePersistence } from './persistence.js';
import { Store } from './store.js';

class CountingPersistence extends FilePersistence {
  writes = 0;
  protected override async write(): Promise<void> {
    this.writes++;
    await super.write();
  }
}

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'credit-sandbox-')), 'data.json');
}

function addPartner(store: Store, id: string) {
  store.partners.insert({
    id,
    seq: store.nextSeq(),
    name: id,
    created_at: '2026-01-01T00:00:00.000Z',
    clock: { offset_ms: 0, frozen_at_ms: 1 },
  });
}

describe('FilePersistence', () => {
  it('group-commits a burst of concurrent flushes into at most two writes, losing nothing', async () => {
    const path = tempFile();
    const store = new Store('key');
    const persistence = new CountingPersistence(path, store);
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      addPartner(store, `ptn_${i}`);
      flushes.push(persistence.flush());
    }
    await Promise.all(flushes);
    expect(persistence.writes).toBeLessThanOrEqual(2);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(saved.tables.partners).toHaveLength(50);
  });

  it('restores every table, the sequence counter and the signing key', async () => {
    const path = tempFile();
    const store = new Store('the-key');
    addPartner(store, 'ptn_a');
    store.jobs.insert({
      id: 'job_1',
      seq: store.nextSeq(),
      partner_id: 'ptn_a',
      kind: 'k',
      due_at_ms: 5,
      payload: {},
    });
    await new FilePersistence(path, store).flush();

    const restored = new Store('another-key');
    expect(await new FilePersistence(path, restored).load()).toBe(true);
    expect(restored.meta).toEqual({ seq: 2, signing_key: 'the-key' });
    expect(restored.partners.get('ptn_a')?.clock).toEqual({ offset_ms: 0, frozen_at_ms: 1 });
    expect(restored.jobsByPartner.rows('ptn_a').map((j) => j.id)).toEqual(['job_1']);
  });

  it('starts empty when the file does not exist yet', async () => {
    const store = new Store('k');
    expect(await new FilePersistence(tempFile(), store).load()).toBe(false);
    expect(store.partners.size).toBe(0);
  });
});
