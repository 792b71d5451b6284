import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HOSTED_CONTRACTS_PATH } from '../domain/credit/contract-ids.js';
import { creditContext } from '../domain/credit/credit-context.js';
import { declineLoan, signLoan } from '../domain/credit/loan-lifecycle.js';
import { ApiError } from '../domain/errors.js';
import { dueDateSchedule, formatCpf } from '../finance/index.js';
import { flushFor } from '../store/persistence.js';
import type { LoanRecord, SimulationRecord } from '../store/records.js';
import type { AppDeps } from './deps.js';
import { badge, brl, clockLine, dateBr, percentBr, type Tone } from './hosted-format.js';
import { escapeHtml, page } from './html.js';

/**
 * The hosted contract (CCB) page a customer is redirected to: the terms, the installment schedule,
 * and Sign / Decline buttons (plain forms, no script). The unguessable token in the URL authorizes
 * it; both buttons move the loan through the same state machine as the control endpoints.
 */
export function signingPageRoutes(deps: AppDeps): Hono {
  const app = new Hono();

  const authorized = (loanId: string, token: string): LoanRecord | undefined => {
    const loan = deps.store.loans.get(loanId);
    if (!loan?.signing_token) return undefined;
    const expected = Buffer.from(loan.signing_token);
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given) ? loan : undefined;
  };

  // The token is the credential: never cache the page, never leak its URL as a referrer.
  app.use(`${HOSTED_CONTRACTS_PATH}/*`, async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
  });

  const invalid = () =>
    page(
      'Contract link not valid',
      '<h1>Contract link not valid</h1><p>This contract link is unknown or incomplete. Open the <code>signing_url</code> of the loan exactly as the API returned it.</p>',
      { marker: CONTRACT_MARKER },
    );

  app.get(`${HOSTED_CONTRACTS_PATH}/:loan_id/:token`, (c) => {
    const loan = authorized(c.req.param('loan_id'), c.req.param('token'));
    if (!loan) return c.html(invalid(), 404);
    return c.html(contractPage(deps, loan, c.req.path, c.req.query('done')));
  });

  for (const action of ['sign', 'decline'] as const) {
    app.post(
      `${HOSTED_CONTRACTS_PATH}/:loan_id/:token/${action}`,
      bodyLimit({ maxSize: 4096, onError: (c) => c.html(invalid(), 413) }),
      async (c) => {
        const found = authorized(c.req.param('loan_id'), c.req.param('token'));
        if (!found) return c.html(invalid(), 404);
        const ctx = creditContext(deps.engine.context(found.partner_id), deps.config.publicUrl);
        // Re-read inside the request: the loan may have moved since the page was rendered.
        const loan = deps.store.loans.get(found.id) as LoanRecord;
        try {
          if (action === 'sign') signLoan(ctx, loan);
          else declineLoan(ctx, loan);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return c.html(
            contractPage(deps, loan, pagePath(c.req.path, action), undefined, error.message),
            409,
          );
        }
        // Outside /v3 no middleware makes writes durable, so the page does it before answering.
        await flushFor(deps.persistence, found.partner_id);
        return c.redirect(`${pagePath(c.req.path, action)}?done=${action}`, 303);
      },
    );
  }
  return app;
}

const money = (value: string) => escapeHtml(brl(value));
const percent = (value: number) => escapeHtml(percentBr(value.toFixed(2)));

/** The marker on every contract page: a person must never take it for a real CCB. */
export const CONTRACT_MARKER = 'Sandbox — not a real contract. Nothing here is binding and no money moves.';

const TONE: Record<LoanRecord['status'], Tone> = {
  processing: 'wait',
  contract_generated: 'wait',
  awaiting_signatures: 'wait',
  signed: 'ok',
  disbursing: 'ok',
  active: 'ok',
  finished: 'ok',
  cancelled: 'fail',
  error: 'fail',
};

function pagePath(actionPath: string, action: string): string {
  return actionPath.slice(0, -(action.length + 1));
}

const STATUS_TEXT: Partial<Record<LoanRecord['status'], string>> = {
  processing: 'The contract is being generated.',
  contract_generated: 'The contract is being sent for signature; reload in a moment.',
  signed: 'The contract is signed. The disbursement by pix starts shortly.',
  disbursing: 'The contract is signed and the money is on its way by pix.',
  active: 'The contract is signed and the money was disbursed.',
  finished: 'The contract is signed and fully repaid.',
  cancelled: 'This contract was cancelled and can no longer be signed.',
  error: 'This contract could not proceed. Contact support.',
};

function contractPage(
  deps: AppDeps,
  loan: LoanRecord,
  path: string,
  done?: string,
  problem?: string,
): string {
  const simulation = deps.store.simulations.get(loan.simulation_id) as SimulationRecord;
  const customer = deps.store.customers.get(loan.customer_id);
  const rows: [string, string][] = [
    ['Requested amount', money(simulation.requested_amount)],
    [
      'IOF',
      `${money(simulation.iof_amount)} (flat ${money(simulation.iof_flat)} + daily ${money(simulation.iof_daily)})`,
    ],
    ['Fees', money(simulation.fees_amount)],
    ['Net amount credited to you (pix)', money(simulation.amount)],
    [
      'Interest',
      `${money(simulation.interest_amount)} at ${percent(simulation.interest_percentage)} a month`,
    ],
    ['Total to repay', money(simulation.total_loan_amount)],
    ['CET (total effective cost)', `${percent(simulation.cet_percentage)} a year`],
    ['Installments', `${simulation.number_of_installments} × ${money(simulation.installments_value)}`],
  ];
  const schedule = dueDateSchedule(simulation.first_due_date, simulation.number_of_installments)
    .map(
      (date, k) =>
        `<tr><td>${k + 1}</td><td>${dateBr(date)}</td><td>${money(simulation.installments_value)}</td></tr>`,
    )
    .join('');
  const notice =
    problem !== undefined
      ? `<p role="alert"><strong>${escapeHtml(problem)}</strong></p>`
      : done === 'sign'
        ? '<p role="status"><strong>Thank you: the contract is signed.</strong></p>'
        : done === 'decline'
          ? '<p role="status"><strong>You declined the contract; the loan is cancelled.</strong></p>'
          : '';
  const actions =
    loan.status === 'awaiting_signatures'
      ? `<form method="post" action="${escapeHtml(path)}/sign" style="display:inline"><button class="primary" type="submit" name="action" value="sign">Sign</button></form>
<form method="post" action="${escapeHtml(path)}/decline" style="display:inline"><button type="submit" name="action" value="decline">Decline</button></form>`
      : `<p>${escapeHtml(STATUS_TEXT[loan.status] ?? '')}</p>`;
  return page(
    `Contract ${loan.ccb_number ?? loan.id}`,
    `<h1>Cédula de Crédito Bancário ${escapeHtml(loan.ccb_number ?? '')}</h1>
<p>${badge(loan.status, TONE[loan.status] ?? 'wait', 'status')} Loan <code>${escapeHtml(loan.id)}</code></p>
${customer ? `<p>Borrower: ${escapeHtml(customer.name ?? '')} · CPF ${escapeHtml(formatCpf(customer.cpf))}${customer.cnpj ? ` · CNPJ ${escapeHtml(customer.cnpj)}` : ''}</p>` : ''}
${notice}
<table><tbody>${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</tbody></table>
<h2>Installment schedule</h2>
<table><thead><tr><th>#</th><th>Due date</th><th>Amount</th></tr></thead><tbody>${schedule}</tbody></table>
<p>Late payment: a 2% fine plus default interest of 1% a month pro rata die on the unpaid amount.</p>
${actions}
${clockLine(partnerClockReading(deps, loan.partner_id), deps.realNow())}`,
    { marker: CONTRACT_MARKER },
  );
}

/** The partner clock as the page shows it: its reading and whether it is frozen. */
export function partnerClockReading(deps: AppDeps, partnerId: string): { nowMs: number; frozen: boolean } {
  return {
    nowMs: deps.engine.clock(partnerId).nowMs(),
    frozen: deps.store.partners.get(partnerId)?.clock.frozen_at_ms != null,
  };
}
