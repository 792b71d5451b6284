import type { EventType } from '../../src/engine/event-types.js';
import type { JsonObject } from '../../src/store/records.js';

const hex = '3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d';
const at = '2026-03-02T12:00:00.000Z';

const LOAN: JsonObject = {
  id: `ln_${hex}`,
  status: 'active',
  customer_id: `cust_${hex}`,
  credit_offer_id: `co_${hex}`,
  simulation_id: `sim_${hex}`,
  requested_amount: '5000.00',
  net_amount: '4920.00',
  installments: 12,
  installments_value: '479.10',
  first_due_date: '2026-04-01',
  total_loan_amount: '5749.20',
  ccb_number: 'CCB-20260302-0000000001',
  signing_url: null,
  disbursement: { method: 'pix', end_to_end_id: 'E9999999920260302120000AbCdEfGhIjK', disbursed_at: at },
  error: null,
  cancelled_at: null,
  created_at: at,
  updated_at: at,
};

const OFFER: JsonObject = {
  id: `co_${hex}`,
  customer_id: `cust_${hex}`,
  status: 'available',
  approved_amount: '10000.00',
  min_amount: '500.00',
  interest_rate: 2,
  installments: 12,
  due_date_rule: null,
  valid_until: '2026-04-01T12:00:00.000Z',
  created_at: at,
  updated_at: at,
};

/**
 * A realistic `data` for each event type, for tests that append events to the log directly: every
 * delivery in the e2e suite is validated against the OpenAPI `webhooks` schema, these included.
 */
export function sampleEventData(type: EventType): JsonObject {
  switch (type) {
    case 'customer.created':
      return {
        id: `cust_${hex}`,
        status: 'pending_kyc',
        cpf: '52998224725',
        cnpj: null,
        name: 'Maria da Silva',
        email: 'maria.silva@example.com',
        phone: '+5511987654321',
        trading_name: null,
        external_id: null,
      };
    case 'customer.under_review':
      return { id: `cust_${hex}`, status: 'under_review', external_id: null };
    case 'customer.active':
      return { id: `cust_${hex}`, status: 'active', external_id: null };
    case 'customer.kyc_updated':
      return { id: `cust_${hex}`, status: 'pending_kyc', external_id: null, kyc: [] };
    case 'credit_offer.available':
      return OFFER;
    case 'credit_offer.expired':
      return { ...OFFER, status: 'expired' };
    case 'loan.payment_received':
      return {
        ...LOAN,
        transaction_id: `tx_${hex}`,
        installment_number: 1,
        amount_paid: '479.10',
        payment_date: '2026-04-01',
        applied_to_late_charges: '0.00',
        applied_to_installment: '479.10',
        installment_status: 'paid',
      };
    case 'loan.cancelled':
      return {
        ...LOAN,
        status: 'cancelled',
        net_amount: null,
        disbursement: null,
        cancelled_at: at,
        reason: 'cancelled',
      };
    case 'loan.error':
      return {
        ...loanAt('disbursing'),
        status: 'error',
        error: { code: 'disbursement_failed', message: 'The pix transfer was refused.' },
      };
    default:
      return loanAt(type === 'loan.created' ? 'processing' : type.slice('loan.'.length));
  }
}

const SIGNING_URL = `http://sandbox.test/sign/ln_${hex}/tok_${hex}`;

/** The loan as its view reads in a status: fields appear as the lifecycle fills them in. */
function loanAt(status: string): JsonObject {
  const before = ['processing', 'contract_generated', 'awaiting_signatures', 'signed', 'disbursing'];
  const reached = (step: string) =>
    before.indexOf(status) === -1 || before.indexOf(status) >= before.indexOf(step);
  return {
    ...LOAN,
    status,
    net_amount: reached('disbursing') && status !== 'disbursing' ? '4920.00' : null,
    ccb_number: reached('contract_generated') ? 'CCB-20260302-0000000001' : null,
    signing_url: status === 'contract_generated' || status === 'awaiting_signatures' ? SIGNING_URL : null,
    disbursement: reached('disbursing')
      ? {
          method: 'pix',
          end_to_end_id: 'E9999999920260302120000AbCdEfGhIjK',
          disbursed_at: status === 'disbursing' ? null : at,
        }
      : null,
  };
}
