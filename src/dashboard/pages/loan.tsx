/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Action, Badge, Empty, Money, When } from '../components.js';
import { afterAction, type DashboardDeps, type DashboardEnv, render } from '../context.js';
import { utc, words } from '../format.js';
import { Layout, type PageContext } from '../layout.js';
import { loanHistory, timeline } from '../loan-history.js';
import { customerName } from '../names.js';
import type { List, Loan, Transaction } from '../types.js';
import { problemPage } from './problem.js';

/** Why a loan has no installments, and the next move only when there is one (never "Sign" on an ended loan). */
const NoInstallments = ({ loan }: { loan: Loan }) =>
  loan.status === 'error' || loan.status === 'cancelled' ? (
    <Empty title="No installments.">
      This loan is {words(loan.status)}: it never becomes active, so it never gets installments.
    </Empty>
  ) : loan.status === 'awaiting_signatures' ? (
    <Empty title="No installments yet.">
      Installments are created when the loan becomes active (after signature and disbursement). Use "Sign"
      above, then advance the clock a few seconds on the <a href="/dashboard">Overview</a>.
    </Empty>
  ) : (
    <Empty title="No installments yet.">
      Installments are created when the loan becomes active (after signature and disbursement): advance the
      clock a few seconds on the <a href="/dashboard">Overview</a>.
    </Empty>
  );

const Installments = ({ loan, rows, ctx }: { loan: Loan; rows: Transaction[]; ctx: PageContext }) =>
  rows.length === 0 ? (
    <NoInstallments loan={loan} />
  ) : (
    <div class="scroll">
      <table class="stack" id="installments">
        <thead>
          <tr>
            <th class="num">#</th>
            <th>Due date</th>
            <th class="num">Amount due</th>
            <th class="num">Paid</th>
            <th>Status</th>
            <th class="num">Days overdue</th>
            <th class="num">Late charges</th>
            <th class="num">Outstanding</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((tx) => (
            <tr data-installment={tx.installment_number} data-status={tx.status}>
              <td data-label="#" class="num">
                {tx.installment_number}
              </td>
              <td data-label="Due date">
                {tx.due_date}
                {tx.payable_until !== tx.due_date ? (
                  <div class="muted" title="The next business day: payment until then is on time">
                    payable until {tx.payable_until}
                  </div>
                ) : null}
              </td>
              <td data-label="Amount due" class="num">
                <Money value={tx.amount_due} />
              </td>
              <td data-label="Paid" class="num">
                <Money value={tx.amount_paid} />
              </td>
              <td data-label="Status">
                <Badge status={tx.status} />
              </td>
              <td data-label="Days overdue" class="num" data-days-overdue={tx.days_overdue}>
                {tx.days_overdue}
              </td>
              <td data-label="Late charges" class="num" title="2 % fine + 1 % a month pro rata die">
                <Money value={tx.late_charges.total} />
                {tx.late_charges.total !== '0.00' ? (
                  <div class="muted">
                    fine <Money value={tx.late_charges.fine} /> + interest{' '}
                    <Money value={tx.late_charges.interest} />
                  </div>
                ) : null}
              </td>
              <td data-label="Outstanding" class="num">
                <Money value={tx.amount_outstanding} />
              </td>
              <td data-label="">
                {tx.status !== 'paid' && loan.status === 'active' ? (
                  <Action
                    action={`/dashboard/loans/${loan.id}/installments/${tx.installment_number}/pay`}
                    label="Pay installment"
                    csrf={ctx.csrf}
                  >
                    <input type="hidden" name="amount" value={tx.amount_outstanding} />
                  </Action>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );

/** A loan: its lifecycle as a timeline, its terms, its installments and the control buttons. */
export function loanPage(app: Hono<DashboardEnv>, { deps }: DashboardDeps) {
  app.get('/dashboard/loans/:id', async (c) => {
    const ctx = c.get('page');
    const api = c.get('api');
    const found = await api.get<Loan>(`/v3/loans/${encodeURIComponent(c.req.param('id'))}`);
    if (!found.ok) return problemPage(c, 'loans', found.problem, '/dashboard/loans');
    const loan = found.body;
    const txs = await api.get<List<Transaction>>(`/v3/loans/${loan.id}/transactions`, { limit: 100 });
    // The API answered, so the loan is this partner's; its history comes from the partner's log.
    const history = loanHistory(deps.store, ctx.partnerId, loan.id);
    const steps = timeline(loan.status, history.entered);
    const base = `/dashboard/loans/${loan.id}`;
    const before = !['active', 'finished', 'cancelled', 'error'].includes(loan.status);
    return render(
      c,
      <Layout title={`Loan ${loan.id}`} section="loans" ctx={ctx}>
        <section class="card" aria-label="Lifecycle">
          <p>
            <Badge status={loan.status} />
            {loan.ccb_number ? (
              <>
                {' '}
                contract <code data-contract>{loan.ccb_number}</code>
              </>
            ) : null}{' '}
            · customer{' '}
            <a href={`/dashboard/customers/${loan.customer_id}`} title={loan.customer_id}>
              {customerName(deps.store, ctx.partnerId, loan.customer_id) ?? loan.customer_id}
            </a>
          </p>
          <ol class="timeline" id="timeline">
            {steps.map((step) => (
              <li class={step.mark} data-state={step.state}>
                <strong>{words(step.state)}</strong>
                <span class="when">{step.at ? utc(step.at) : step.mark === 'todo' ? 'not yet' : '—'}</span>
              </li>
            ))}
          </ol>
          {loan.error ? (
            <p role="alert">
              Error <code>{loan.error.code}</code>: {loan.error.message}
            </p>
          ) : null}
          <div style="margin-top:.8rem">
            {loan.status === 'awaiting_signatures' ? (
              <>
                <Action action={`${base}/sign`} label="Sign" tone="primary" csrf={ctx.csrf} />
                <Action action={`${base}/decline`} label="Decline" csrf={ctx.csrf} />
              </>
            ) : null}
            {loan.status === 'signed' || loan.status === 'disbursing' ? (
              <Action action={`${base}/fail`} label="Fail disbursement" tone="danger" csrf={ctx.csrf} />
            ) : null}
            {before ? (
              <Action action={`${base}/cancel`} label="Cancel" tone="danger" csrf={ctx.csrf} />
            ) : null}
            {loan.signing_url ? (
              <a href={loan.signing_url} rel="noreferrer">
                Open the hosted contract page
              </a>
            ) : null}
          </div>
        </section>
        <section class="card">
          <dl class="facts">
            <dt>Requested</dt>
            <dd>
              <Money value={loan.requested_amount} />
            </dd>
            <dt>Net to the customer</dt>
            <dd>
              <Money value={loan.net_amount} />
            </dd>
            <dt>Installments</dt>
            <dd>
              {loan.installments} × <Money value={loan.installments_value} /> from {loan.first_due_date}
            </dd>
            <dt>Total to repay</dt>
            <dd>
              <Money value={loan.total_loan_amount} />
            </dd>
            <dt>pix</dt>
            <dd>
              {loan.disbursement ? (
                <>
                  <code>{loan.disbursement.end_to_end_id}</code>{' '}
                  <When iso={loan.disbursement.disbursed_at} nowMs={ctx.nowMs} />
                </>
              ) : (
                '—'
              )}
            </dd>
          </dl>
        </section>
        <h2>Installments</h2>
        <Installments loan={loan} rows={txs.ok ? txs.body.data : []} ctx={ctx} />
        <h2>Payments</h2>
        {history.payments.length === 0 ? (
          <p class="muted">No payment received yet.</p>
        ) : (
          <ul id="payments">
            {history.payments.map((p) => (
              <li>
                {utc(p.timestamp)} · installment {String(p.data.installment_number ?? '?')} ·{' '}
                <Money value={typeof p.data.amount_paid === 'string' ? p.data.amount_paid : undefined} />
              </li>
            ))}
          </ul>
        )}
      </Layout>,
    );
  });

  const path = (c: { req: { param(name: 'id'): string } }) =>
    `/v3/sandbox/loans/${encodeURIComponent(c.req.param('id'))}`;
  const back = (c: { req: { param(name: 'id'): string } }) =>
    `/dashboard/loans/${encodeURIComponent(c.req.param('id'))}`;
  const moves = [
    ['sign', 'Signed: disbursement starts shortly.', undefined],
    ['decline', 'Signature declined: the loan is cancelled.', undefined],
    ['cancel', 'Loan cancelled.', undefined],
    ['fail', 'Disbursement failed: the loan is in error.', { stage: 'disbursement' }],
  ] as const;
  for (const [move, text, body] of moves) {
    app.post(`/dashboard/loans/:id/${move}`, async (c) => {
      const result = await c.get('api').post(`${path(c)}/${move}`, body);
      return afterAction(c, result, back(c), text);
    });
  }
  app.post('/dashboard/loans/:id/installments/:n/pay', async (c) => {
    const form = await c.req.parseBody();
    const amount = typeof form.amount === 'string' ? form.amount : '';
    const installment = Number(c.req.param('n'));
    const result = await c
      .get('api')
      .post(`${path(c)}/payments`, { amount, installment_number: installment });
    return afterAction(c, result, back(c), `Installment ${installment} paid.`);
  });
}
