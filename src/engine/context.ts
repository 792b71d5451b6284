import type { BankingCalendar } from '../finance/business-days.js';
import type { IdSource, RandomBytes } from '../lib/ids.js';
import type { Random } from '../lib/random.js';
import type { EventRecord, JobRecord, JsonObject } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Clock } from './clock.js';
import type { EventType } from './event-types.js';
import type { Timings } from './timings.js';

/**
 * What a domain operation works with: the store, one partner and that partner's clock, the
 * id/random sources, the event log and the scheduler. Passed in, never imported, so domain code
 * stays pure and testable. Inside a timed job `clock` reads the job's own due time.
 */
export interface DomainContext {
  store: Store;
  partnerId: string;
  clock: Clock;
  ids: IdSource;
  randomBytes: RandomBytes;
  /** The partner's stream of random numbers for random choices (webhook chaos). */
  random: Random;
  /** Every automatic delay (DESIGN's defaults, or `--timings`). */
  timings: Timings;
  /** Banking business days (`--holidays-region`): when a due installment is payable until. */
  calendar: BankingCalendar;
  /** Appends an event (timestamp = clock now) to the partner's log and fans it out to webhooks. */
  emit(type: EventType, data: JsonObject): EventRecord;
  /** Schedules a timed job on the partner clock. */
  schedule(kind: string, payload: JsonObject, dueAtMs: number): JobRecord;
  /** Cancels a pending job (no-op when it already ran). */
  cancelJob(jobId: string): void;
}

/** The part of a context that operations without events or jobs need (credentials, partners). */
export type CoreContext = Pick<DomainContext, 'store' | 'partnerId' | 'clock' | 'ids' | 'randomBytes'>;

/** A timed job's body: a domain function run with the job's due time as `now`. */
export type JobHandler = (ctx: DomainContext, payload: JsonObject) => void;
