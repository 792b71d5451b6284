// Journeys: whole walks through the state machines, each watched by one webhook endpoint that
// receives every event, shared by the event checks of the run. Each step is awaited, so a step the
// target never takes ends the journey there (the checks that need later events skip with why).
import { okBody } from '../context.js';
import type { CheckContext } from '../types.js';
import type { Hook } from '../webhooks/hook.js';
import { availableOffer, type Json, loanBody, loanReaches, simulate, transactions } from './credit.js';
import { customerReaches, type KitCustomer, registerCustomer, submitKyc } from './customers.js';

export interface Journey {
  hook: Hook;
  /** The steps reached, in order; `failed` holds why the journey stopped early, if it did. */
  reached: string[];
  stopped?: unknown;
  customer?: KitCustomer;
  offer?: Json;
  loanId?: string;
}

export type JourneyKind = 'customer' | 'loan-finished' | 'loan-cancelled' | 'loan-error' | 'offer-expired';

/** The journey of `kind`, started once per run. */
export function journey(ctx: CheckContext, kind: JourneyKind): Promise<Journey> {
  return ctx.journey(kind, (own) => walk(own, kind));
}

async function walk(ctx: CheckContext, kind: JourneyKind): Promise<Journey> {
  const hook = await ctx.webhook({ description: `conformance journey ${kind}` });
  const state: Journey = { hook, reached: [] };
  try {
    const customer = await registerCustomer(ctx, { label: `journey-${kind}` });
    state.customer = customer;
    state.reached.push('customer.created');
    if (ctx.facts.mode === 'controlled') await ctx.advance('1s');
    await submitKyc(ctx, customer);
    await customerReaches(ctx, customer.id, 'active');
    state.reached.push('customer.active');
    const offer = await availableOffer(ctx, customer.id);
    state.offer = offer;
    state.reached.push('credit_offer.available');
    if (kind === 'customer') return state;
    if (kind === 'offer-expired') {
      await ctx.until(
        `expire offer ${String(offer.id)}`,
        async () => {
          const now = okBody(
            await (await ctx.partner()).call('GET', `/credit-offers/${String(offer.id)}`),
            'GET /credit-offers/{id}',
          );
          return now.status === 'expired' ? now : undefined;
        },
        { partnerTime: 400 * 86_400_000 },
      );
      state.reached.push('credit_offer.expired');
      return state;
    }
    if (ctx.facts.mode === 'controlled') await ctx.advance('1s');
    const api = await ctx.partner();
    const simulation = okBody(await simulate(api, offer), 'POST /credit-offers/{id}/simulations');
    const created = okBody(
      await api.call('POST', '/loans', { body: loanBody(offer, simulation) }),
      'POST /loans',
    );
    const loanId = String(created.id);
    state.loanId = loanId;
    state.reached.push('loan.created');
    if (kind === 'loan-cancelled') {
      await loanReaches(ctx, loanId, 'awaiting_signatures');
      await ctx.control('POST', `/sandbox/loans/${loanId}/cancel`);
      state.reached.push('loan.cancelled');
      return state;
    }
    if (kind === 'loan-error') {
      await loanReaches(ctx, loanId, 'signed');
      await ctx.control('POST', `/sandbox/loans/${loanId}/fail`, { stage: 'disbursement' });
      state.reached.push('loan.error');
      return state;
    }
    await loanReaches(ctx, loanId, 'active');
    state.reached.push('loan.active');
    for (const tx of await transactions(api, loanId)) {
      if (ctx.facts.mode === 'controlled') await ctx.advance('1s');
      await ctx.control('POST', `/sandbox/loans/${loanId}/payments`, {
        amount: tx.amount_due,
        installment_number: tx.installment_number,
      });
    }
    state.reached.push('loan.finished');
  } catch (error) {
    state.stopped = error;
  }
  return state;
}

/** The journey's events of `type` about its customer or loan; throws why the journey stopped when it never got there. */
export async function journeyEvent(
  ctx: CheckContext,
  kind: JourneyKind,
  type: string,
): Promise<{ journey: Journey; data: Record<string, unknown> }> {
  const walked = await journey(ctx, kind);
  const about = type.startsWith('loan.')
    ? walked.loanId
    : type.startsWith('credit_offer.')
      ? (walked.offer?.id as string | undefined)
      : walked.customer?.id;
  const match = (e: { type: string; data: Record<string, unknown> }) =>
    e.type === type && (about === undefined || e.data.id === about);
  if (walked.stopped) {
    // The journey already waited as long as the run allows: what came, came.
    const seen = walked.hook.events().find(match);
    if (!seen) throw walked.stopped;
    return { journey: walked, data: seen.data };
  }
  const event = await walked.hook.waitFor(type, match);
  return { journey: walked, data: event.data };
}
