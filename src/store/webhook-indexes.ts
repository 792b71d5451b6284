import { byField, SortedIndex } from './indexes.js';
import type { DeliveryRecord, WebhookEndpointRecord } from './records.js';
import type { Table } from './table.js';

const bySeq = (a: { seq: number }, b: { seq: number }): number => a.seq - b.seq;

/** Endpoints per partner by creation (list order, and the fan-out loop). */
export function webhookEndpointIndexes(table: Table<WebhookEndpointRecord>) {
  return {
    byPartner: table.index(
      new SortedIndex<WebhookEndpointRecord>(
        (r) => r.partner_id,
        byField((r) => r.created_at),
      ),
    ),
  };
}

/**
 * Deliveries in creation order per partner, and per partner + event, endpoint or status, so each
 * filter of the delivery log pages through its own list instead of scanning the partner's.
 */
export function deliveryIndexes(table: Table<DeliveryRecord>) {
  return {
    byPartner: table.index(new SortedIndex<DeliveryRecord>((r) => r.partner_id, bySeq)),
    byEvent: table.index(new SortedIndex<DeliveryRecord>((r) => `${r.partner_id}|${r.event_id}`, bySeq)),
    byEndpoint: table.index(
      new SortedIndex<DeliveryRecord>((r) => `${r.partner_id}|${r.endpoint_id}`, bySeq),
    ),
    byStatus: table.index(new SortedIndex<DeliveryRecord>((r) => `${r.partner_id}|${r.status}`, bySeq)),
  };
}
