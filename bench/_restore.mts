import { JournalPersistence } from '../src/store/journal/journal-persistence.js';
import { Store } from '../src/store/store.js';

const t0 = performance.now();
const { persistence, report } = await JournalPersistence.open(process.argv[2] as string, new Store('x'));
console.log('open ms', performance.now() - t0, report.rows, report.entries);
await persistence.close();
