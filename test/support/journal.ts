import { JournalPersistence } from '../../src/store/journal/journal-persistence.js';
import type { Store } from '../../src/store/store.js';

/** Restores `store` from `--data` files at `path` (if any) and returns the journal that keeps it. */
export async function openJournal(path: string, store: Store): Promise<JournalPersistence> {
  return (await JournalPersistence.open(path, store)).persistence;
}
