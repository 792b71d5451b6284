import type { Clock } from '../engine/clock.js';
import type { IdSource, RandomBytes } from '../lib/ids.js';
import type { Store } from '../store/store.js';

/**
 * What a domain operation works with: the store, one partner and that partner's clock, and the
 * id/random sources. Passed in, never imported, so domain code stays pure and testable.
 */
export interface DomainContext {
  store: Store;
  partnerId: string;
  clock: Clock;
  ids: IdSource;
  randomBytes: RandomBytes;
}
