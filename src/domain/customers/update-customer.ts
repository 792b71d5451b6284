import type { DomainContext } from '../../engine/context.js';
import type { CustomerRecord } from '../../store/records.js';
import { ApiError } from '../errors.js';
import { commitKyc, getCustomer, moveKycItem, retireItemDocument } from './kyc-progress.js';
import { ccmeiItem, type DataField } from './requirements.js';
import { normalizeTaxIds } from './tax-ids.js';

/** `PATCH /customers/{id}` input: only the fields sent change; cnpj and trading_name may be null. */
export interface CustomerChanges {
  name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  cnpj?: string | null | undefined;
  trading_name?: string | null | undefined;
}

/** Fields that can never change, refused with 422 naming each one sent. */
export const IMMUTABLE_FIELDS = ['cpf', 'external_id'] as const;

export const CCMEI_CHANGED_MESSAGE = 'The CNPJ changed: upload the CCMEI of the new company.';

/**
 * Updates a customer's data. A field sent while its `data` KYC item awaits correction submits the
 * correction (KYC resumes, `customer.kyc_updated` follows). A CNPJ added or removed adds or drops
 * the CCMEI requirement; a different CNPJ asks for its CCMEI again. The CNPJ of an active
 * customer cannot change (that would need a new review).
 */
export function updateCustomer(
  ctx: DomainContext,
  customerId: string,
  changes: CustomerChanges,
): CustomerRecord {
  const customer = getCustomer(ctx, customerId);
  const cnpj = normalizeTaxIds({ cnpj: changes.cnpj }).cnpj;
  const cnpjChanges = cnpj !== undefined && cnpj !== customer.cnpj;
  if (cnpjChanges && customer.status === 'active') {
    throw new ApiError(
      'kyc_completed',
      `Customer ${customer.id} is active: its cnpj was verified in KYC and cannot change. Register the company's owner again if this is a different business.`,
      { param: 'cnpj' },
    );
  }
  if (cnpjChanges && cnpj !== null) {
    const other = ctx.store.customerIdx.byCnpj.get(`${ctx.partnerId}|${cnpj}`);
    if (other && other.id !== customer.id) {
      throw new ApiError('customer_exists', `Another customer (${other.id}) already has this cnpj.`, {
        param: 'cnpj',
      });
    }
  }

  const now = ctx.clock.iso();
  let row = ctx.store.customers.replace({
    ...customer,
    name: changes.name ?? customer.name,
    email: changes.email ?? customer.email,
    phone: changes.phone ?? customer.phone,
    trading_name: changes.trading_name !== undefined ? changes.trading_name : customer.trading_name,
    cnpj: cnpj !== undefined ? cnpj : customer.cnpj,
    updated_at: now,
  });

  if (cnpjChanges) row = reconcileCcmei(ctx, row, customer.cnpj);
  for (const field of Object.keys(changes) as DataField[]) {
    if (changes[field] === undefined) continue;
    const item = row.kyc.find((i) => i.kind === 'data' && i.type === field);
    if (item?.status === 'pending_correction') row = moveKycItem(ctx, row, field, 'submit');
  }
  return row;
}

/** Keeps the CCMEI requirement in step with the CNPJ (stored already) after it changed. */
function reconcileCcmei(ctx: DomainContext, row: CustomerRecord, previous: string | null): CustomerRecord {
  const ccmei = row.kyc.find((i) => i.type === 'ccmei');
  if (row.cnpj !== null && !ccmei) {
    return commitKyc(ctx, { ...row, kyc: [...row.kyc, ccmeiItem()] });
  }
  if (row.cnpj === null && ccmei) {
    retireItemDocument(ctx, ccmei);
    return commitKyc(ctx, { ...row, kyc: row.kyc.filter((i) => i !== ccmei) });
  }
  // A different company: its certificate must be sent again, if one was sent for the old one.
  if (previous !== null && ccmei && (ccmei.status === 'submitted' || ccmei.status === 'approved')) {
    return moveKycItem(ctx, row, 'ccmei', 'reject', { message: CCMEI_CHANGED_MESSAGE });
  }
  return row;
}
