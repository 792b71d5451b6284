import type { DomainContext } from '../engine/context.js';
import { cancelPendingDeliveries } from './deliveries.js';
import { getEndpoint } from './endpoints.js';

/**
 * Deletes an endpoint for good and cancels its pending deliveries, so their scheduled retries
 * never run. Its delivery history stays in the log. An attempt already in flight finishes; its
 * outcome is recorded but schedules nothing.
 */
export function deleteEndpoint(ctx: DomainContext, id: string): { id: string; deleted: true } {
  const row = getEndpoint(ctx, id);
  cancelPendingDeliveries(ctx, row.id);
  ctx.store.webhookEndpoints.delete(row.id);
  return { id: row.id, deleted: true };
}
