import type { DomainContext } from '../../engine/context.js';
import { keyedViewText } from '../../lib/view-text.js';
import type { JsonObject, LoanRecord } from '../../store/records.js';
import { ApiError, type FieldError } from '../errors.js';
import { signingUrl } from './contract-ids.js';
import type { CreditContext } from './credit-context.js';
import { CREDIT_JOBS } from './jobs.js';
import { allowedLoanActions, LOAN_ACTION_EVENTS, type LoanAction, nextLoanStatus } from './loan-states.js';
import { assertOfferAvailable, findOffer, transitionOffer } from './offers.js';

/** The public Loan. */
export type LoanView = {
  id: string;
  status: LoanRecord['status'];
  customer_id: string;
  credit_offer_id: string;
  simulation_id: string;
  requested_amount: string;
  net_amount: string | null;
  installments: number;
  installments_value: string;
  first_due_date: string;
  total_loan_amount: string;
  ccb_number: string | null;
  signing_url: string | null;
  disbursement: LoanRecord['disbursement'];
  error: LoanRecord['error'];
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * Statuses in which a loan shows its `signing_url`: from the moment the contract exists (its
 * `loan.contract_generated` event announces the URL, so GET at that instant must agree) until the
 * loan leaves `awaiting_signatures`. The page offers its buttons only while awaiting signatures.
 */
const SIGNING_URL_STATUSES: ReadonlySet<LoanRecord['status']> = new Set([
  'contract_generated',
  'awaiting_signatures',
]);

/** The loan as the API and its events show it (the same view in both). */
export function loanView(loan: LoanRecord, publicUrl: string): LoanView {
  return {
    id: loan.id,
    status: loan.status,
    customer_id: loan.customer_id,
    credit_offer_id: loan.credit_offer_id,
    simulation_id: loan.simulation_id,
    requested_amount: loan.requested_amount,
    net_amount: loan.net_amount,
    installments: loan.installments,
    installments_value: loan.installments_value,
    first_due_date: loan.first_due_date,
    total_loan_amount: loan.total_loan_amount,
    ccb_number: loan.ccb_number,
    signing_url:
      SIGNING_URL_STATUSES.has(loan.status) && loan.signing_token !== null
        ? signingUrl(publicUrl, loan.id, loan.signing_token)
        : null,
    disbursement: loan.disbursement,
    error: loan.error,
    cancelled_at: loan.cancelled_at,
    created_at: loan.created_at,
    updated_at: loan.updated_at,
  };
}

/** The loan's JSON for a public URL, serialised once per row version. */
export const loanJson = keyedViewText(loanView);

/** The partner's loan with this id, or a 404. */
export function findLoan(ctx: Pick<DomainContext, 'store' | 'partnerId'>, id: string): LoanRecord {
  const loan = ctx.store.loans.get(id);
  if (!loan || loan.partner_id !== ctx.partnerId) {
    throw new ApiError('resource_not_found', `No loan with id "${id}" exists for this partner.`);
  }
  return loan;
}

export interface CreateLoanInput {
  credit_offer_id: string;
  simulation_id: string;
  installments?: number | undefined;
  installments_value?: string | undefined;
  first_due_date?: string | undefined;
}

/**
 * Contracts the offer's latest simulation: the loan starts `processing`, the offer becomes
 * `accepted`, and the contract is generated a moment later by a job.
 */
export function createLoan(ctx: CreditContext, input: CreateLoanInput): LoanRecord {
  const offer = findOffer(ctx, input.credit_offer_id, 'credit_offer_id');
  const simulation = ctx.store.simulations.get(input.simulation_id);
  if (!simulation || simulation.partner_id !== ctx.partnerId) {
    throw new ApiError(
      'resource_not_found',
      `No simulation with id "${input.simulation_id}" exists for this partner.`,
      { param: 'simulation_id' },
    );
  }
  if (simulation.credit_offer_id !== offer.id) {
    throw new ApiError(
      'simulation_offer_mismatch',
      `Simulation ${simulation.id} belongs to credit offer ${simulation.credit_offer_id}, not ${offer.id}.`,
      { param: 'simulation_id' },
    );
  }
  assertOfferAvailable(ctx, offer, 'credit_offer_id');
  if (offer.latest_simulation_id !== simulation.id) {
    throw new ApiError(
      'simulation_superseded',
      `Simulation ${simulation.id} is no longer valid: ${offer.latest_simulation_id} is the latest simulation of offer ${offer.id}, and only the latest can be contracted.`,
      { param: 'simulation_id' },
    );
  }
  const mismatches: FieldError[] = [];
  const expect = (param: string, sent: unknown, actual: unknown, source: string) => {
    if (sent !== undefined && sent !== actual) {
      mismatches.push({
        param,
        code: 'loan_terms_mismatch',
        detail: `${param} ${JSON.stringify(sent)} differs from the simulation's ${source} ${JSON.stringify(actual)}.`,
      });
    }
  };
  expect('installments', input.installments, simulation.number_of_installments, 'number_of_installments');
  expect('installments_value', input.installments_value, simulation.installments_value, 'installments_value');
  expect('first_due_date', input.first_due_date, simulation.first_due_date, 'first_due_date');
  if (mismatches.length > 0) {
    throw new ApiError(
      'loan_terms_mismatch',
      `${mismatches.map((m) => m.detail).join(' ')} Omit these fields or send the simulation's values.`,
      { param: mismatches[0]?.param, errors: mismatches },
    );
  }

  transitionOffer(ctx, offer, 'accept');
  const now = ctx.clock.iso();
  const loan = ctx.store.loans.insert({
    id: ctx.ids('ln_'),
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    customer_id: offer.customer_id,
    credit_offer_id: offer.id,
    simulation_id: simulation.id,
    status: 'processing',
    requested_amount: simulation.requested_amount,
    net_amount: null,
    installments: simulation.number_of_installments,
    installments_value: simulation.installments_value,
    first_due_date: simulation.first_due_date,
    total_loan_amount: simulation.total_loan_amount,
    ccb_number: null,
    signing_token: null,
    disbursement: null,
    error: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
  });
  ctx.emit('loan.created', loanView(loan, ctx.publicUrl));
  ctx.schedule(
    CREDIT_JOBS.generateContract,
    { loan_id: loan.id },
    ctx.clock.nowMs() + ctx.timings.contractGenerationMs,
  );
  return loan;
}

/**
 * The one path by which a loan changes: checks the state machine, stores the new row and appends
 * the action's event, whose data is the loan view plus `extras`. Refused moves answer 409.
 */
export function transitionLoan(
  ctx: CreditContext,
  loan: LoanRecord,
  action: LoanAction,
  changes: Partial<Omit<LoanRecord, 'id' | 'status'>> = {},
  extras: JsonObject = {},
): LoanRecord {
  const next = nextLoanStatus(loan.status, action);
  if (next === undefined) {
    const allowed = allowedLoanActions(loan.status);
    throw new ApiError(
      'invalid_loan_transition',
      `Loan ${loan.id} is ${loan.status}; it cannot ${action.replaceAll('_', ' ')} from there${
        allowed.length > 0 ? ` (possible now: ${allowed.join(', ')})` : ' (it is final)'
      }.`,
    );
  }
  const row = ctx.store.loans.replace({ ...loan, ...changes, status: next, updated_at: ctx.clock.iso() });
  ctx.emit(LOAN_ACTION_EVENTS[action], { ...loanView(row, ctx.publicUrl), ...extras });
  return row;
}

/** Whether a job's move still applies (the loan may have been cancelled or failed meanwhile). */
export function canMove(loan: LoanRecord | undefined, action: LoanAction): loan is LoanRecord {
  return loan !== undefined && nextLoanStatus(loan.status, action) !== undefined;
}
