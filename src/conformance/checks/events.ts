// Event payloads ("Events": customer, credit offer and loan events) as the journeys' endpoints
// received them, and their order: each event's `timestamp` is when its cause happened.

import { z } from 'zod';
import { type JourneyKind, journey, journeyEvent } from '../flows/journeys.js';
import { CreditOffer, CUSTOMER_STATUSES, DateTime, KycItem, Money, Uri } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check } from '../types.js';
import { expectEqual, expectTrue, fail } from '../verdict.js';

const nullableString = z.string().nullable();

/** Each event's payload as the spec's tables describe it (names the spec leaves open are not required). */
const PAYLOADS: Array<{
  type: string;
  journey: JourneyKind;
  spec: string;
  schema: z.ZodType;
  extra?: (data: Record<string, unknown>) => void;
}> = [
  {
    type: 'customer.created',
    journey: 'customer',
    spec: 'Events › Customer events',
    schema: z.looseObject({
      id: z.string(),
      status: z.literal('pending_kyc'),
      cpf: z.string(),
      cnpj: nullableString.optional(),
      name: z.string(),
      email: z.string(),
      phone: z.string(),
      trading_name: nullableString.optional(),
      external_id: nullableString,
    }),
  },
  {
    type: 'customer.under_review',
    journey: 'customer',
    spec: 'Events › Customer events',
    schema: z.looseObject({ id: z.string(), status: z.literal('under_review'), external_id: nullableString }),
  },
  {
    type: 'customer.kyc_updated',
    journey: 'customer',
    spec: 'Events › Customer events',
    schema: z.looseObject({
      id: z.string(),
      status: z.enum(CUSTOMER_STATUSES),
      external_id: nullableString,
      kyc: z.array(KycItem),
    }),
  },
  {
    type: 'customer.active',
    journey: 'customer',
    spec: 'Events › Customer events',
    schema: z.looseObject({ id: z.string(), status: z.literal('active'), external_id: nullableString }),
  },
  {
    type: 'credit_offer.available',
    journey: 'customer',
    spec: 'Events › Credit offer events',
    schema: z
      .looseObject({
        id: z.string(),
        approved_amount: Money,
        interest_rate: z.number(),
        valid_until: DateTime,
        installments: z.number().int().optional(),
        min_installments: z.unknown().optional(),
      })
      .refine((d) => d.installments !== undefined || d.min_installments !== undefined, {
        message: 'installments (or the range)',
        path: ['installments'],
      }),
  },
  {
    type: 'credit_offer.expired',
    journey: 'offer-expired',
    spec: 'Events › Credit offer events',
    schema: CreditOffer,
    extra: (d) => expectEqual(d.status, 'expired', 'status in credit_offer.expired'),
  },
  {
    type: 'loan.created',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({
      id: z.string(),
      credit_offer_id: z.string(),
      customer_id: z.string(),
      requested_amount: Money,
      installments: z.number().int(),
      status: z.literal('processing'),
    }),
  },
  {
    type: 'loan.contract_generated',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string(), signing_url: Uri, ccb_number: z.string().min(1) }),
  },
  {
    type: 'loan.awaiting_signatures',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string(), signing_url: Uri }),
  },
  {
    type: 'loan.signed',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string(), ccb_number: z.string().min(1) }),
  },
  {
    type: 'loan.disbursing',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string() }),
    extra: (d) =>
      expectTrue(
        JSON.stringify(d).includes('"method":'),
        'loan.disbursing names no disbursement method',
        'a method (e.g. pix)',
        d,
      ),
  },
  {
    type: 'loan.active',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string(), requested_amount: Money, net_amount: Money }),
  },
  {
    type: 'loan.payment_received',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string() }),
    extra: (d) => {
      const entries = Object.entries(d);
      const has = (test: (key: string, value: unknown) => boolean) =>
        entries.some(([key, value]) => test(key, value));
      expectTrue(
        has((k, v) => k.includes('installment') && Number.isInteger(v)),
        'loan.payment_received carries no installment number',
        'an installment number',
        d,
      );
      expectTrue(
        has((k, v) => k.includes('date') && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)),
        'loan.payment_received carries no payment date',
        'a payment date',
        d,
      );
      expectTrue(
        has((k, v) => k.includes('amount') && typeof v === 'string' && /^\d+\.\d{2}$/.test(v)),
        'loan.payment_received carries no amount paid',
        'an amount',
        d,
      );
    },
  },
  {
    type: 'loan.finished',
    journey: 'loan-finished',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string(), status: z.literal('finished') }),
  },
  {
    type: 'loan.cancelled',
    journey: 'loan-cancelled',
    spec: 'Events › Loan events',
    schema: z.looseObject({ id: z.string(), status: z.literal('cancelled') }),
  },
  {
    type: 'loan.error',
    journey: 'loan-error',
    spec: 'Events › Loan events',
    schema: z.looseObject({
      id: z.string(),
      error: z.looseObject({ code: z.string(), message: z.string() }),
    }),
  },
];

/** Cause order along the loan journey (kyc_updated may fall anywhere inside KYC). */
const CAUSE_ORDER = [
  'customer.created',
  'customer.under_review',
  'customer.active',
  'loan.created',
  'loan.contract_generated',
  'loan.awaiting_signatures',
  'loan.signed',
  'loan.disbursing',
  'loan.active',
  'loan.payment_received',
  'loan.finished',
];

export const EVENT_CHECKS: Check[] = [
  ...PAYLOADS.map(
    (payload): Check => ({
      id: `webhooks.events.${payload.type}`,
      title: `${payload.type} is delivered with the payload the spec describes`,
      spec: payload.spec,
      needs: 'black-box',
      async run(ctx) {
        const { data } = await journeyEvent(ctx, payload.journey, payload.type);
        expectShape(payload.schema, data, `${payload.type} data`);
        payload.extra?.(data);
      },
    }),
  ),
  {
    id: 'webhooks.events.order',
    title: 'events carry timestamps in the order their causes happened',
    spec: 'Events; States › Customer, Loan',
    needs: 'controlled',
    async run(ctx) {
      const walked = await journey(ctx, 'loan-finished');
      if (walked.stopped) throw walked.stopped;
      await walked.hook.waitFor('loan.finished', (e) => e.type === 'loan.finished');
      const events = walked.hook.events();
      let last = '1970-01-01T00:00:00Z';
      let lastType = '';
      for (const type of CAUSE_ORDER) {
        const found = events.filter((e) => e.type === type);
        if (found.length === 0)
          fail(
            `no ${type} event in the loan journey`,
            type,
            events.map((e) => e.type),
          );
        for (const event of found) {
          if (Date.parse(event.timestamp) < Date.parse(last))
            fail(`${type} is timestamped before ${lastType}, which it follows`, `≥ ${last}`, event.timestamp);
        }
        last = found
          .map((e) => e.timestamp)
          .sort((a, b) => Date.parse(a) - Date.parse(b))
          .at(-1) as string;
        lastType = type;
      }
    },
  },
];
