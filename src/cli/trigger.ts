import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { FormData } from 'undici';
import { ALL_EVENT_TYPES, type EventType } from '../engine/event-types.js';
import type { SandboxClient } from './client.js';
import { action, FailedError, type Output, UsageError } from './context.js';
import type { Customer } from './customers.js';
import type { SandboxEvent } from './events.js';
import type { Installment, Loan } from './loans.js';
import { chooseCpf } from './trigger-cpf.js';
import { OVERRIDABLE, type Overrides, parseOverrides } from './trigger-overrides.js';

/** What a trigger run has created so far. */
interface Journey {
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

interface Stage {
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

const STAGES = {
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

/** `trigger <event-type>`: creates what the event needs and drives it until the event fires. */
export function registerTrigger(program: Command): void {
  program
    .command('trigger')
    .argument('<event-type>', `one of: ${ALL_EVENT_TYPES.join(', ')}`)
    .option(
      '--cpf <cpf>',
      'CPF of the customer to create (default: a fresh valid CPF whose offer takes --set amount/installments; a magic CPF forces its outcome)',
    )
    .option(
      '--set <field=value>',
      `override a field of what is created (repeatable): ${Object.keys(OVERRIDABLE).join(', ')}`,
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .description(
      'create the objects an event needs and drive them (control calls, clock advances) until it fires',
    )
    .action(
      action(async ({ client, out }, type: string, opts: { cpf?: string; set: string[] }) => {
        if (!(ALL_EVENT_TYPES as readonly string[]).includes(type)) {
          throw new UsageError(`unknown event type "${type}". Known: ${ALL_EVENT_TYPES.join(', ')}`);
        }
        const overrides = parseOverrides(opts.set);
        return trigger(client, type as EventType, chooseCpf(opts.cpf, overrides), overrides, out);
      }),
    );
}

async function trigger(
  client: SandboxClient,
  type: EventType,
  cpf: string,
  overrides: Overrides,
  out: Output,
): Promise<number> {
  const latest = async () =>
    (await client.call<{ data: SandboxEvent[] }>('GET', '/v3/sandbox/events', { query: { type, limit: 1 } }))
      .data[0];
  const baseline = (await latest())?.id;
  const journey: Journey = {
    client,
    cpf,
    overrides,
    async check() {
      if (journey.fired) return true;
      const newest = await latest();
      if (newest && newest.id !== baseline) journey.fired = newest;
      return journey.fired !== undefined;
    },
  };
  for (const name of RECIPES[type]) {
    const stage: Stage = STAGES[name];
    out.progress(`→ ${stage.label}`);
    await stage.run(journey);
    if (await journey.check()) break;
  }
  const fired = journey.fired;
  if (!fired)
    throw new FailedError(`${type} did not fire (the customer's profile may force another outcome)`);
  const objects = {
    customer_id: journey.customer?.id ?? null,
    credit_offer_id: journey.offer?.id ?? null,
    loan_id: journey.loan?.id ?? null,
  };
  out.result({ event: fired, objects }, () => [
    `✓ ${fired.type} fired: ${fired.id} at ${fired.timestamp}`,
    ...Object.entries(objects)
      .filter(([, id]) => id !== null)
      .map(([name, id]) => `  ${name.padEnd(16)} ${id}`),
  ]);
  return 0;
}

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
