// The trigger command's stages and its event→recipe table: what each event needs created, in order.
import { readFileSync } from 'node:fs';
import type { EventType } from '../engine/event-types.js';
import type { SandboxClient } from './client.js';
import { FailedError } from './context.js';
import type { Customer } from './customers.js';
import type { SandboxEvent } from './events.js';
import type { Installment, Loan } from './loans.js';
import type { Overrides } from './trigger-overrides.js';

/** What a trigger run has created so far. */
export interface Journey {
  client: SandboxClient;
  cpf: string;
  /** `--set field=value`: what the user wants different from the defaults. */
  overrides: Overrides;
  customer?: Customer;
  offer?: { id: string; installments?: number; min_installments?: number; min_amount: string };
  loan?: Loan;
  /** The target event, once it fired. */
  fired?: SandboxEvent;
  /** Checks whether the target event fired since the start. */
  check(): Promise<boolean>;
}

export interface Stage {
  label: string;
  run(journey: Journey): Promise<void>;
}

const FIXTURES = new URL('../../fixtures/', import.meta.url);

const upload = (type: string, file: string, contentType: string): Stage => ({
  label: `upload ${type}`,
  async run(j) {
    const form = new FormData();
    form.set('type', type);
    form.set('file', new Blob([readFileSync(new URL(file, FIXTURES))], { type: contentType }), file);
    await j.client.call('POST', `/v3/customers/${need(j.customer).id}/documents`, { form });
  },
});

/** Advances the clock a step at a time until `done` holds or the target event fires (bounded). */
async function advanceUntil(
  j: Journey,
  step: string,
  maxSteps: number,
  done: () => Promise<boolean>,
): Promise<void> {
  for (let k = 0; k < maxSteps; k += 1) {
    if ((await done()) || (await j.check())) return;
    await j.client.call('POST', '/v3/sandbox/clock/advance', { body: { by: step } });
  }
  if (!(await done()))
    throw new FailedError(`gave up waiting after advancing the clock ${maxSteps} × ${step}`);
}

const loanReaches = (status: string): Stage => ({
  label: `let the loan reach ${status}`,
  run: (j) =>
    advanceUntil(j, '1s', 120, async () => {
      j.loan = await j.client.call<Loan>('GET', `/v3/loans/${need(j.loan).id}`);
      return j.loan.status === status;
    }),
});

export const STAGES = {
  customer: {
    label: 'register a customer',
    async run(j) {
      const { name, email, phone, external_id } = j.overrides;
      j.customer = await j.client.call<Customer>('POST', '/v3/customers', {
        body: {
          cpf: j.cpf,
          name: name ?? 'Trigger Test',
          email: email ?? `trigger+${j.cpf}@example.com`,
          ...(phone !== undefined ? { phone } : {}),
          ...(external_id !== undefined ? { external_id } : {}),
        },
        accept: [200, 201],
      });
    },
  },
  front: upload('identity_card_front', 'sample.pdf', 'application/pdf'),
  back: upload('identity_card_back', 'sample.jpg', 'image/jpeg'),
  selfie: upload('selfie', 'sample.png', 'image/png'),
  biometrics: {
    label: 'complete the biometrics capture',
    async run(j) {
      const id = need(j.customer).id;
      await j.client.call('POST', `/v3/customers/${id}/biometrics`);
      await j.client.call('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, {
        body: { outcome: 'approved' },
      });
    },
  },
  active: {
    label: 'let the KYC review approve the customer',
    run: (j) =>
      advanceUntil(j, '5s', 60, async () => {
        j.customer = await j.client.call<Customer>('GET', `/v3/customers/${need(j.customer).id}`);
        return j.customer.status === 'active';
      }),
  },
  offer: {
    label: 'find the available offer',
    async run(j) {
      const page = await j.client.call<{ data: NonNullable<Journey['offer']>[] }>(
        'GET',
        `/v3/customers/${need(j.customer).id}/credit-offers`,
        { query: { status: 'available' } },
      );
      j.offer = page.data[0];
      if (!j.offer)
        throw new FailedError(`customer ${need(j.customer).id} has no available offer (a no_offer profile?)`);
    },
  },
  expire: {
    label: 'expire the offer',
    async run(j) {
      await j.client.call('POST', `/v3/sandbox/credit-offers/${need(j.offer).id}/expire`);
    },
  },
  loan: {
    label: 'simulate and create a loan',
    async run(j) {
      const offer = need(j.offer);
      const simulation = await j.client.call<{ id: string }>(
        'POST',
        `/v3/credit-offers/${offer.id}/simulations`,
        {
          body: {
            requested_amount: j.overrides.amount ?? offer.min_amount,
            installment_count: j.overrides.installments ?? offer.installments ?? offer.min_installments,
          },
        },
      );
      j.loan = await j.client.call<Loan>('POST', '/v3/loans', {
        body: { credit_offer_id: offer.id, simulation_id: simulation.id },
      });
    },
  },
  awaiting: loanReaches('awaiting_signatures'),
  sign: {
    label: 'sign the contract',
    async run(j) {
      j.loan = await j.client.call<Loan>('POST', `/v3/sandbox/loans/${need(j.loan).id}/sign`);
    },
  },
  disbursed: loanReaches('active'),
  decline: {
    label: 'decline the signature',
    async run(j) {
      j.loan = await j.client.call<Loan>('POST', `/v3/sandbox/loans/${need(j.loan).id}/decline`);
    },
  },
  fail: {
    label: 'make the disbursement fail',
    async run(j) {
      j.loan = await j.client.call<Loan>('POST', `/v3/sandbox/loans/${need(j.loan).id}/fail`, {
        body: { stage: 'disbursement' },
      });
    },
  },
  payOne: {
    label: 'pay the first installment',
    async run(j) {
      const first = (await installments(j))[0] as Installment;
      await pay(j, first);
    },
  },
  payAll: {
    label: 'pay every installment',
    async run(j) {
      for (const tx of await installments(j)) {
        if (tx.status !== 'paid') await pay(j, tx);
      }
    },
  },
} satisfies Record<string, Stage>;

type StageName = keyof typeof STAGES;

const KYC: StageName[] = ['customer', 'front', 'back', 'selfie', 'biometrics'];
const ACTIVE: StageName[] = [...KYC, 'active', 'offer'];
const AWAITING: StageName[] = [...ACTIVE, 'loan', 'awaiting'];
const DISBURSED: StageName[] = [...AWAITING, 'sign', 'disbursed'];

/** For each event, the stages that lead to it (the run stops as soon as the event fires). */
export const RECIPES: Record<EventType, StageName[]> = {
  'customer.created': ['customer'],
  'customer.kyc_updated': KYC,
  'customer.under_review': KYC,
  'customer.active': ACTIVE,
  'credit_offer.available': ACTIVE,
  'credit_offer.expired': [...ACTIVE, 'expire'],
  'loan.created': [...ACTIVE, 'loan'],
  'loan.contract_generated': AWAITING,
  'loan.awaiting_signatures': AWAITING,
  'loan.signed': [...AWAITING, 'sign'],
  'loan.disbursing': DISBURSED,
  'loan.active': DISBURSED,
  'loan.payment_received': [...DISBURSED, 'payOne'],
  'loan.finished': [...DISBURSED, 'payAll'],
  'loan.cancelled': [...AWAITING, 'decline'],
  'loan.error': [...AWAITING, 'sign', 'fail'],
};

async function installments(j: Journey): Promise<Installment[]> {
  return (
    await j.client.call<{ data: Installment[] }>('GET', `/v3/loans/${need(j.loan).id}/transactions`, {
      query: { limit: 100 },
    })
  ).data;
}

async function pay(j: Journey, tx: Installment): Promise<void> {
  await j.client.call('POST', `/v3/sandbox/loans/${need(j.loan).id}/payments`, {
    body: { amount: tx.amount_outstanding, installment_number: tx.installment_number },
  });
}

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('trigger stage ran out of order');
  return value;
}
