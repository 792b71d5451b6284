import type { DomainContext } from '../../engine/context.js';
import {
  addDays,
  FinanceDecimal,
  formatMoney,
  type LoanSimulation,
  type LoanTerms,
  simulateLoan,
  toDecimal,
} from '../../finance/index.js';
import { viewText } from '../../lib/view-text.js';
import type { CreditOfferRecord, SimulationRecord } from '../../store/records.js';
import { ApiError, type FieldError } from '../errors.js';
import { magicBehaviour } from '../magic-profiles.js';
import { clockDate } from './credit-context.js';
import { firstDueDateFor } from './offer-terms.js';
import { assertOfferAvailable, findOffer } from './offers.js';

export interface SimulationInput {
  /** A non-negative decimal string with at most 2 places (the route has checked the format). */
  requested_amount: string;
  installment_count: number;
}

/** The public Simulation: every field the spec lists. */
export interface SimulationView {
  id: string;
  credit_offer_id: string;
  requested_amount: string;
  amount: string;
  interest_amount: string;
  fees_amount: string;
  iof_amount: string;
  total_loan_amount: string;
  interest_percentage: number;
  cet_percentage: number;
  number_of_installments: number;
  installments_value: string;
  first_due_date: string;
  created_at: string;
}

export function simulationView(row: SimulationRecord): SimulationView {
  return {
    id: row.id,
    credit_offer_id: row.credit_offer_id,
    requested_amount: row.requested_amount,
    amount: row.amount,
    interest_amount: row.interest_amount,
    fees_amount: row.fees_amount,
    iof_amount: row.iof_amount,
    total_loan_amount: row.total_loan_amount,
    interest_percentage: row.interest_percentage,
    cet_percentage: row.cet_percentage,
    number_of_installments: row.number_of_installments,
    installments_value: row.installments_value,
    first_due_date: row.first_due_date,
    created_at: row.created_at,
  };
}

/** The simulation's JSON, serialised once per row version. */
export const simulationJson = viewText(simulationView);

/** The installment counts an offer allows, as [min, max]. */
export function installmentBounds(offer: CreditOfferRecord): [number, number] {
  if (offer.installments !== null) return [offer.installments, offer.installments];
  return [offer.min_installments ?? 1, offer.max_installments ?? 1];
}

/** The fee a simulation of `requestedAmount` carries under the offer (percent of the amount). */
export function feeFor(offer: CreditOfferRecord, requestedAmount: string): string {
  return formatMoney(toDecimal(requestedAmount).mul(new FinanceDecimal(offer.fee_percentage)).div(100));
}

/** The offer's rule, except for the magic profile whose first installment falls due on a holiday. */
function firstDueDate(ctx: DomainContext, offer: CreditOfferRecord, simulationDate: string): string {
  const cpf = ctx.store.customers.get(offer.customer_id)?.cpf ?? '';
  if (magicBehaviour(cpf) === 'first_due_on_holiday') {
    return ctx.calendar.nextWeekdayHoliday(addDays(simulationDate, 30));
  }
  return firstDueDateFor(offer.due_date_rule, simulationDate);
}

/** Distinct terms whose simulation is kept (a result of 12 installments is ~3 KB; of 120, ~25 KB). */
export const SIMULATIONS_KEPT = 256;
const kept = new Map<string, LoanSimulation>();

/**
 * `simulateLoan`, remembered for the last SIMULATIONS_KEPT distinct terms: a simulation is a pure
 * function of its terms (amount, rate, count, dates, fees), and the Decimal arithmetic of its
 * schedule, IOF and CET is most of what a `POST …/simulations` costs. Results are read only.
 */
/** How many simulations are kept now (at most SIMULATIONS_KEPT). */
export function simulationsKept(): number {
  return kept.size;
}

function simulated(terms: LoanTerms): LoanSimulation {
  const key = JSON.stringify(terms);
  let result = kept.get(key);
  if (result === undefined) {
    result = simulateLoan(terms);
    if (kept.size >= SIMULATIONS_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(key, result);
  }
  return result;
}

/**
 * Simulates a loan on an available offer, dated by the partner clock (São Paulo date), and makes it the
 * offer's latest simulation: the only one that can be contracted.
 */
export function createSimulation(
  ctx: DomainContext,
  offerId: string,
  input: SimulationInput,
): SimulationRecord {
  const offer = findOffer(ctx, offerId);
  assertOfferAvailable(ctx, offer, 'credit_offer_id');
  // "5000" and "5000.5" are accepted and simulated (and answered) as "5000.00" and "5000.50".
  const requested = formatMoney(toDecimal(input.requested_amount));
  assertWithinOffer(offer, { ...input, requested_amount: requested });

  const simulationDate = clockDate(ctx);
  let result: LoanSimulation;
  try {
    result = simulated({
      requestedAmount: requested,
      monthlyRatePercent: offer.interest_rate,
      installmentCount: input.installment_count,
      simulationDate,
      firstDueDate: firstDueDate(ctx, offer, simulationDate),
      borrower: offer.borrower,
      feesAmount: feeFor(offer, requested),
    });
  } catch (error) {
    // Terms the offer allows always simulate; this only guards against custom offer terms.
    if (error instanceof RangeError) {
      throw new ApiError('amount_out_of_range', error.message, { param: 'requested_amount' });
    }
    throw error;
  }
  const row = ctx.store.simulations.insert({
    id: ctx.ids('sim_'),
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    credit_offer_id: offer.id,
    customer_id: offer.customer_id,
    requested_amount: result.requested_amount,
    amount: result.amount,
    interest_amount: result.interest_amount,
    fees_amount: result.fees_amount,
    iof_amount: result.iof_amount,
    iof_flat: result.iof.flat,
    iof_daily: result.iof.daily,
    total_loan_amount: result.total_loan_amount,
    interest_percentage: result.interest_percentage,
    cet_percentage: result.cet_percentage,
    number_of_installments: result.number_of_installments,
    installments_value: result.installments_value,
    first_due_date: result.first_due_date,
    simulation_date: simulationDate,
    created_at: ctx.clock.iso(),
  });
  ctx.store.creditOffers.replace({ ...offer, latest_simulation_id: row.id });
  return row;
}

/** 422 listing every term outside the offer (amount and count together when both are). */
function assertWithinOffer(offer: CreditOfferRecord, input: SimulationInput): void {
  const errors: (FieldError & { code: string })[] = [];
  const amount = toDecimal(input.requested_amount);
  if (amount.lt(offer.min_amount) || amount.gt(offer.approved_amount)) {
    errors.push({
      param: 'requested_amount',
      code: 'amount_out_of_range',
      detail: `requested_amount ${input.requested_amount} is outside the offer: send between ${offer.min_amount} and ${offer.approved_amount}.`,
    });
  }
  const [min, max] = installmentBounds(offer);
  if (input.installment_count < min || input.installment_count > max) {
    errors.push({
      param: 'installment_count',
      code: 'installment_count_out_of_range',
      detail:
        min === max
          ? `installment_count ${input.installment_count} is not offered: this offer has exactly ${min} installments.`
          : `installment_count ${input.installment_count} is outside the offer: send between ${min} and ${max}.`,
    });
  }
  const first = errors[0];
  if (!first) return;
  throw new ApiError(
    first.code === 'amount_out_of_range' ? 'amount_out_of_range' : 'installment_count_out_of_range',
    errors.length === 1 ? first.detail : `${errors.map((e) => e.detail).join(' ')}`,
    { param: first.param, errors },
  );
}
