import type { LoanRecord } from '../../store/records.js';
import { ApiError } from '../errors.js';
import { magicBehaviour } from '../magic-profiles.js';
import { ccbNumber, pixEndToEndId, signingToken } from './contract-ids.js';
import { type CreditContext, startOfDayMs } from './credit-context.js';
import { createInstallments } from './installment-jobs.js';
import { CREDIT_JOBS } from './jobs.js';
import { FAIL_STAGES, type FailStage } from './loan-states.js';
import { canMove, transitionLoan } from './loans.js';
import { scheduleNextOffer } from './offers.js';

/**
 * The loan's steps after creation. Each is one state-machine move (`transitionLoan`) followed by
 * the scheduling of the next automatic step; jobs, control endpoints and the hosted signing page
 * all call these, so every path emits the same events.
 */

/** processing -> contract_generated: the CCB gets its number and a signing page. */
export function generateContract(ctx: CreditContext, loan: LoanRecord): LoanRecord {
  const token = signingToken(ctx.randomBytes);
  const row = transitionLoan(ctx, loan, 'generate_contract', {
    ccb_number: ccbNumber(loan.id, ctx.clock.nowMs()),
    signing_token: token,
  });
  ctx.schedule(
    CREDIT_JOBS.requestSignature,
    { loan_id: loan.id },
    ctx.clock.nowMs() + ctx.timings.signatureRequestMs,
  );
  return row;
}

/**
 * contract_generated -> awaiting_signatures; magic profiles answer by themselves a moment later.
 * The signature is awaited until 00:00 São Paulo time of the first due date: a loan disbursed later would
 * start with an installment already due (its schedule was fixed at simulation time).
 */
export function requestSignature(ctx: CreditContext, loan: LoanRecord): LoanRecord {
  const row = transitionLoan(ctx, loan, 'request_signature');
  ctx.schedule(CREDIT_JOBS.signatureExpire, { loan_id: loan.id }, startOfDayMs(loan.first_due_date));
  const decision = signatureDecision(ctx, loan);
  if (decision) {
    ctx.schedule(
      CREDIT_JOBS.customerSignature,
      { loan_id: loan.id, decision },
      ctx.clock.nowMs() + ctx.timings.magicSignatureMs,
    );
  }
  return row;
}

/** awaiting_signatures -> signed; disbursement starts a moment later. */
export function signLoan(ctx: CreditContext, loan: LoanRecord): LoanRecord {
  const row = transitionLoan(ctx, loan, 'sign');
  ctx.schedule(
    CREDIT_JOBS.startDisbursement,
    { loan_id: loan.id },
    ctx.clock.nowMs() + ctx.timings.disbursementStartMs,
  );
  return row;
}

/** awaiting_signatures -> cancelled: the customer refused to sign. */
export function declineLoan(ctx: CreditContext, loan: LoanRecord): LoanRecord {
  const row = transitionLoan(
    ctx,
    loan,
    'decline',
    { cancelled_at: ctx.clock.iso() },
    {
      reason: 'signature_declined',
    },
  );
  scheduleNextOffer(ctx, loan.customer_id);
  return row;
}

/**
 * Any state before active -> cancelled: by the control API (`cancelled`), or because the first
 * due date came before the signature (`signature_expired`).
 */
export function cancelLoan(
  ctx: CreditContext,
  loan: LoanRecord,
  reason: 'cancelled' | 'signature_expired' = 'cancelled',
): LoanRecord {
  const row = transitionLoan(ctx, loan, 'cancel', { cancelled_at: ctx.clock.iso() }, { reason });
  scheduleNextOffer(ctx, loan.customer_id);
  return row;
}

/** signed -> disbursing: the pix transfer is initiated and gets its end-to-end id. */
export function startDisbursement(ctx: CreditContext, loan: LoanRecord): LoanRecord {
  const row = transitionLoan(ctx, loan, 'start_disbursement', {
    disbursement: {
      method: 'pix',
      end_to_end_id: pixEndToEndId(ctx.clock.nowMs(), ctx.randomBytes),
      disbursed_at: null,
    },
  });
  ctx.schedule(
    CREDIT_JOBS.confirmDisbursement,
    { loan_id: loan.id },
    ctx.clock.nowMs() + ctx.timings.disbursementConfirmationMs,
  );
  return row;
}

/** disbursing -> active: the money arrived; the installments exist from now on. */
export function confirmDisbursement(ctx: CreditContext, loan: LoanRecord): LoanRecord {
  const simulation = ctx.store.simulations.get(loan.simulation_id);
  if (!simulation) throw new Error(`loan ${loan.id} has no simulation ${loan.simulation_id}`);
  // Installments first, so a receiver of loan.active can read them right away.
  createInstallments(ctx, loan);
  return transitionLoan(ctx, loan, 'confirm_disbursement', {
    net_amount: simulation.amount,
    disbursement: loan.disbursement ? { ...loan.disbursement, disbursed_at: ctx.clock.iso() } : null,
  });
}

const FAILURES: Record<FailStage, { code: string; message: string }> = {
  contract: {
    code: 'contract_generation_failed',
    message: 'The credit note (CCB) could not be generated. Contact support; the loan will not proceed.',
  },
  disbursement: {
    code: 'disbursement_failed',
    message:
      "The pix transfer to the customer's account was rejected by the receiving institution. Contact support; no money was moved.",
  },
};

/** Moves the loan to error at a stage where that stage can fail (409 otherwise). */
export function failLoan(ctx: CreditContext, loan: LoanRecord, stage: FailStage): LoanRecord {
  const from: readonly string[] = FAIL_STAGES[stage];
  if (!from.includes(loan.status)) {
    throw new ApiError(
      'invalid_loan_transition',
      `Loan ${loan.id} is ${loan.status}; the ${stage} stage can fail only while the loan is ${from.join(' or ')}.`,
      { param: 'stage' },
    );
  }
  const row = transitionLoan(ctx, loan, 'fail', { error: FAILURES[stage] });
  scheduleNextOffer(ctx, loan.customer_id);
  return row;
}

/** Job body: the scheduled step, unless the loan moved on meanwhile (cancelled, failed, signed by hand). */
export function runLoanStep(ctx: CreditContext, kind: string, loanId: string, decision?: string): void {
  const loan = ctx.store.loans.get(loanId);
  switch (kind) {
    case CREDIT_JOBS.generateContract:
      if (canMove(loan, 'generate_contract')) generateContract(ctx, loan);
      return;
    case CREDIT_JOBS.requestSignature:
      if (canMove(loan, 'request_signature')) requestSignature(ctx, loan);
      return;
    case CREDIT_JOBS.customerSignature:
      if (decision === 'decline' && canMove(loan, 'decline')) declineLoan(ctx, loan);
      if (decision === 'sign' && canMove(loan, 'sign')) signLoan(ctx, loan);
      return;
    case CREDIT_JOBS.signatureExpire:
      // Only a loan still waiting for its signature; one signed or cancelled meanwhile is left alone.
      if (loan?.status === 'awaiting_signatures') cancelLoan(ctx, loan, 'signature_expired');
      return;
    case CREDIT_JOBS.startDisbursement:
      if (canMove(loan, 'start_disbursement')) startDisbursement(ctx, loan);
      return;
    case CREDIT_JOBS.confirmDisbursement:
      if (!canMove(loan, 'confirm_disbursement')) return;
      if (magicBehaviour(customerCpf(ctx, loan)) === 'disbursement_failure')
        failLoan(ctx, loan, 'disbursement');
      else confirmDisbursement(ctx, loan);
      return;
  }
}

/** How a magic profile answers a signature request, if it does. */
function signatureDecision(ctx: CreditContext, loan: LoanRecord): 'sign' | 'decline' | undefined {
  switch (magicBehaviour(customerCpf(ctx, loan))) {
    case 'signature_declined':
      return 'decline';
    case 'pays_on_time':
    case 'pays_late':
    case 'pays_partially':
      return 'sign';
    default:
      return undefined;
  }
}

function customerCpf(ctx: CreditContext, loan: LoanRecord): string {
  return ctx.store.customers.get(loan.customer_id)?.cpf ?? '';
}
