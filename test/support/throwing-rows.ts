import type { ClockState, CustomerRecord, WebhookEndpointRecord } from '../../src/store/records.js';
import type { Store } from '../../src/store/store.js';

// Rows the sandbox cannot read, as a hand-edited import or a damaged data file could leave them
// (import validation refuses them; these tests check that the runtime survives them anyway). Each
// makes one path throw: a view, a clock reading, a signature, a journal line.

/**
 * A customer of the partner whose view throws (`kyc: [null]`, a TypeError in the customer view).
 * Returns its id.
 */
export function plantThrowingCustomer(store: Store, partnerId: string, id = 'cust_throwing'): string {
  const row = {
    id,
    seq: store.nextSeq(),
    partner_id: partnerId,
    status: 'pending_kyc',
    cpf: '52998224725',
    cnpj: null,
    name: 'Throwing Row',
    email: null,
    phone: null,
    trading_name: null,
    external_id: null,
    kyc: [null],
    review_job_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  } as unknown as CustomerRecord;
  store.customers.insert(row);
  return id;
}

/**
 * Freezes the partner's clock at `atMs`; by default past the last instant a date can show, where
 * the clock's view throws `RangeError: Invalid time value`.
 */
export function plantEndOfTimeClock(store: Store, partnerId: string, atMs = 8.64e15 + 1): void {
  const clock: ClockState = { offset_ms: 0, frozen_at_ms: atMs };
  store.partners.update(partnerId, (row) => ({ ...row, clock }));
}

/** Removes the partner's clock altogether: anything reading it throws a TypeError. */
export function plantMissingClock(store: Store, partnerId: string): void {
  store.partners.update(partnerId, (row) => ({ ...row, clock: null as unknown as ClockState }));
}

/** Gives a webhook endpoint a secret signing cannot use (a TypeError when an attempt is signed). */
export function plantUnsignableEndpoint(store: Store, endpointId: string): void {
  store.webhookEndpoints.update(
    endpointId,
    (row) => ({ ...row, secret: null }) as unknown as WebhookEndpointRecord,
  );
}

/**
 * A row of the partner holding a value JSON cannot write (a BigInt; in a table nothing else reads):
 * the flush that carries it throws `TypeError: Do not know how to serialize a BigInt`.
 */
export function plantUnwritableRow(store: Store, partnerId: string, id = 'unwritable'): void {
  store.randomCounters.insert({ id, partner_id: partnerId, draws: 1n as unknown as number });
}
