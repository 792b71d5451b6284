import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Snapshot, Store } from '../store.js';
import { journalPaths } from './files.js';
import { JournalPersistence } from './journal-persistence.js';
import { addPartner, tempDataFile } from './test-helpers.js';

/** A journal of three entries (each one flush), and the world after the first two. */
async function threeEntries(): Promise<{ bytes: Buffer; afterTwo: Snapshot; afterThree: Snapshot }> {
  const path = tempDataFile();
  const store = new Store('key');
  const { persistence } = await JournalPersistence.open(path, store);
  addPartner(store, 'ptn_a');
  addPartner(store, 'ptn_b');
  await persistence.flush();
  store.partners.update('ptn_a', (row) => ({ ...row, name: 'Ana Ltda' }));
  await persistence.flush();
  const afterTwo = store.snapshot();
  store.partners.delete('ptn_b');
  addPartner(store, 'ptn_c', 'ç'.repeat(40)); // multi-byte characters: lengths are bytes
  await persistence.close();
  return { bytes: readFileSync(journalPaths(path).journal), afterTwo, afterThree: store.snapshot() };
}

function withJournal(bytes: Buffer): string {
  const path = tempDataFile();
  writeFileSync(journalPaths(path).journal, bytes);
  return path;
}

describe('journal recovery', () => {
  it('loads the complete earlier entries when the journal is cut at every byte offset of its last line', async () => {
    const { bytes, afterTwo, afterThree } = await threeEntries();
    const lastLine = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    for (let cut = lastLine; cut <= bytes.length; cut++) {
      const path = withJournal(bytes.subarray(0, cut));
      const store = new Store('other');
      const { persistence, report } = await JournalPersistence.open(path, store);
      const complete = cut === bytes.length;
      expect(store.snapshot(), `cut at ${cut}`).toEqual(complete ? afterThree : afterTwo);
      expect(report.entries).toBe(complete ? 3 : 2);
      expect(report.dropped.map((d) => d.bytes)).toEqual(cut > lastLine && !complete ? [cut - lastLine] : []);
      // The torn tail is gone from the file: the next entry follows the last complete one.
      addPartner(store, 'ptn_after');
      await persistence.close();
      const again = new Store('k');
      const reopened = await JournalPersistence.open(path, again);
      expect(reopened.report.dropped).toEqual([]);
      expect(again.partners.get('ptn_after')).toBeDefined();
      await reopened.persistence.close();
    }
  }); // a few hundred opens, each syncing files: slow on a busy disk

  it('stops at a damaged entry in the middle: loads what came before, sets the rest aside, never crashes', async () => {
    const { bytes } = await threeEntries();
    const second = bytes.indexOf(0x0a) + 1;
    const damaged = Buffer.from(bytes);
    damaged[second + 40] = (damaged[second + 40] as number) ^ 0x01; // one flipped bit inside entry 2
    const path = withJournal(damaged);
    const store = new Store('k');
    const { persistence, report } = await JournalPersistence.open(path, store);
    expect(report.entries).toBe(1);
    expect(report.dropped).toEqual([
      {
        file: journalPaths(path).journal,
        offset: second,
        bytes: bytes.length - second,
        problem: `checksum mismatch at byte ${second}`,
      },
    ]);
    expect(store.partners.get('ptn_a')?.name).toBe('ptn_a');
    expect(readFileSync(journalPaths(path).dropped).includes(damaged.subarray(second))).toBe(true);
    expect(readFileSync(journalPaths(path).journal)).toEqual(bytes.subarray(0, second));
    await persistence.close();
  });

  it('drops an entry that repeats or skips a number (garbage that happens to be well formed)', async () => {
    const { bytes } = await threeEntries();
    const second = bytes.indexOf(0x0a) + 1;
    const path = withJournal(Buffer.concat([bytes.subarray(0, second), bytes.subarray(0, second)]));
    const store = new Store('k');
    const { report, persistence: reopened } = await JournalPersistence.open(path, store);
    await reopened.close();
    expect(report.entries).toBe(1);
    expect(report.dropped[0]?.problem).toBe(`entry 1 where 2 was expected, at byte ${second}`);
  });

  it('reports a journal of pure garbage as dropped and starts from the snapshot', async () => {
    const path = tempDataFile();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(journalPaths(path).journal, 'not a journal at all\n');
    const store = new Store('k');
    const { report, persistence: reopened } = await JournalPersistence.open(path, store);
    await reopened.close();
    expect(report).toMatchObject({ entries: 0, rows: 0 });
    expect(report.dropped[0]?.problem).toBe('line header without a length at byte 0');
    expect(join(dirname(path), 'data.json.journal.dropped')).toBe(journalPaths(path).dropped);
  });
});
