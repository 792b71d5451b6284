import type { CoreContext } from '../../engine/context.js';
import type { CustomerRecord } from '../../store/records.js';
import { ApiError } from '../errors.js';

/** The partner's customer with this id, or a 404 (another partner's id is not found either). */
export function findCustomer(
  ctx: Pick<CoreContext, 'store' | 'partnerId'>,
  id: string,
  param?: string,
): CustomerRecord {
  const customer = ctx.store.customers.get(id);
  if (!customer || customer.partner_id !== ctx.partnerId) {
    throw new ApiError('resource_not_found', `No customer with id "${id}" exists for this partner.`, {
      ...(param ? { param } : {}),
    });
  }
  return customer;
}
