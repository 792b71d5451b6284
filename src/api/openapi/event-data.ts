import type { EventType } from '../../engine/event-types.js';

type Json = Record<string, unknown>;

/** What an event's `data` follows: a component schema, and what the event implies beyond it. */
export interface EventData {
  /** The component schema (`#/components/schemas/<schema>`). */
  schema: string;
  /** Properties the event fixes (`allOf` with the component): its status, fields it announces. */
  implies?: Json;
}

const status = (value: string) => ({ status: { type: 'string', const: value } });
/** A field the component allows to be null, which this event carries. */
const present = (type: 'string' | 'object') => ({ type });

/**
 * The spec's event tables, one row per event: `customer.under_review` / `customer.active` carry
 * their status ("`data.status` matches it"), `credit_offer.expired` the full offer with status
 * `expired`, `loan.contract_generated` its `ccb_number` and `signing_url`, `loan.signed` its
 * `ccb_number`, `loan.disbursing` the disbursement method, `loan.active` the `net_amount`,
 * `loan.finished` / `loan.cancelled` their status, `loan.error` an `error` with a code and a
 * message. Each loan event's status is the state the transition it reports moves into
 * (`loan.payment_received`: a payment recorded on an `active` loan, which stays `active`; the
 * last one is followed by `loan.finished`). A delivery whose data contradicts its type fails the
 * schema (the e2e suite validates every delivery it receives against it).
 */
export const EVENT_DATA: Record<EventType, EventData> = {
  'customer.created': { schema: 'CustomerCreatedData' },
  'customer.under_review': { schema: 'CustomerStatusData', implies: status('under_review') },
  'customer.kyc_updated': { schema: 'CustomerKycUpdatedData' },
  'customer.active': { schema: 'CustomerStatusData', implies: status('active') },
  'credit_offer.available': { schema: 'CreditOffer', implies: status('available') },
  'credit_offer.expired': { schema: 'CreditOffer', implies: status('expired') },
  'loan.created': { schema: 'Loan', implies: status('processing') },
  'loan.contract_generated': {
    schema: 'Loan',
    implies: {
      ...status('contract_generated'),
      ccb_number: present('string'),
      signing_url: present('string'),
    },
  },
  'loan.awaiting_signatures': {
    schema: 'Loan',
    implies: {
      ...status('awaiting_signatures'),
      ccb_number: present('string'),
      signing_url: present('string'),
    },
  },
  'loan.signed': { schema: 'Loan', implies: { ...status('signed'), ccb_number: present('string') } },
  'loan.disbursing': {
    schema: 'Loan',
    implies: { ...status('disbursing'), disbursement: present('object') },
  },
  'loan.active': {
    schema: 'Loan',
    implies: { ...status('active'), net_amount: present('string'), disbursement: present('object') },
  },
  'loan.payment_received': { schema: 'LoanPaymentReceivedData', implies: status('active') },
  'loan.finished': { schema: 'Loan', implies: status('finished') },
  'loan.cancelled': {
    schema: 'LoanCancelledData',
    implies: { ...status('cancelled'), cancelled_at: present('string') },
  },
  'loan.error': { schema: 'Loan', implies: { ...status('error'), error: present('object') } },
};

/** The JSON Schema of an event's `data`: its component, narrowed by what the event implies. */
export function eventDataSchema(type: EventType): Json {
  const { schema, implies } = EVENT_DATA[type];
  const ref = { $ref: `#/components/schemas/${schema}` };
  return implies ? { allOf: [ref, { type: 'object', properties: implies }] } : ref;
}
