import { onTestFinished } from 'vitest';
import { JournalPersistence } from '../../src/store/journal/journal-persistence.js';
import type { Store } from '../../src/store/store.js';

/**
 * Restores `store` from `--data` files at `path` (if any) and returns the journal that keeps it.
 * The journal is closed when the test finishes: its file handle left to the garbage collector
 * made Node print "Closing file descriptor … on garbage collection" (DEP0137) in the test output.
 * (A test that simulates a crash simply never closes it itself.)
 */
export async function openJournal(path: string, store: Store): Promise<JournalPersistence> {
  const { persistence } = await JournalPersistence.open(path, store);
  onTestFinished(() => persistence.close());
  return persistence;
}
