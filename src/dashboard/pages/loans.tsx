/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Badge, Empty, Money, Pager, When } from '../components.js';
import type { DashboardDeps, DashboardEnv } from '../context.js';
import { render } from '../context.js';
import { LOAN_STATUSES, statusCounts } from '../counts.js';
import { words } from '../format.js';
import { Layout } from '../layout.js';
import type { List, Loan } from '../types.js';
import { loanPage } from './loan.js';
import { problemPage } from './problem.js';

/** Loans: a paginated list by status (one link per status, with its count). */
export function loanPages(app: Hono<DashboardEnv>, deps: DashboardDeps) {
  app.get('/dashboard/loans', async (c) => {
    const page = c.get('page');
    const status = LOAN_STATUSES.find((s) => s === c.req.query('status'));
    const after = c.req.query('starting_after');
    const result = await c
      .get('api')
      .get<List<Loan>>('/v3/loans', { status, limit: 25, starting_after: after });
    if (!result.ok) return problemPage(c, 'loans', result.problem, '/dashboard/loans');
    const counts = statusCounts(deps.deps.store, page.partnerId).loans;
    const rows = result.body.data;
    return render(
      c,
      <Layout title={status ? `Loans · ${words(status)}` : 'Loans'} section="loans" ctx={page}>
        <nav class="card" aria-label="Loan status">
          <a href="/dashboard/loans" aria-current={status ? undefined : 'page'}>
            all
          </a>
          {LOAN_STATUSES.map((s) => (
            <span>
              {' · '}
              <a href={`/dashboard/loans?status=${s}`} aria-current={s === status ? 'page' : undefined}>
                {words(s)}
              </a>{' '}
              <span class="muted">{counts[s]}</span>
            </span>
          ))}
        </nav>
        {rows.length === 0 ? (
          <Empty title={status ? `No ${words(status)} loans.` : 'No loans yet.'}>
            A loan starts from an available offer: simulate it (
            <code>POST /v3/credit-offers/&lt;id&gt;/simulations</code>) and send <code>POST /v3/loans</code>,
            or run the <a href="/dashboard/scenarios">happy-path scenario</a>.
          </Empty>
        ) : (
          <div class="scroll">
            <table class="stack" id="loans">
              <thead>
                <tr>
                  <th>Loan</th>
                  <th>Status</th>
                  <th class="num">Requested</th>
                  <th class="num">Installments</th>
                  <th>Customer</th>
                  <th>Created (partner clock)</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((loan) => (
                  <tr data-loan={loan.id}>
                    <td data-label="Loan">
                      <a href={`/dashboard/loans/${loan.id}`}>{loan.ccb_number ?? loan.id}</a>
                    </td>
                    <td data-label="Status">
                      <Badge status={loan.status} />
                    </td>
                    <td data-label="Requested" class="num">
                      <Money value={loan.requested_amount} />
                    </td>
                    <td data-label="Installments" class="num">
                      {loan.installments} × <Money value={loan.installments_value} />
                    </td>
                    <td data-label="Customer">
                      <a href={`/dashboard/customers/${loan.customer_id}`}>{loan.customer_id}</a>
                    </td>
                    <td data-label="Created">
                      <When iso={loan.created_at} nowMs={page.nowMs} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          base="/dashboard/loans"
          params={{ status }}
          next={result.body.has_more ? rows.at(-1)?.id : undefined}
          first={!after}
        />
      </Layout>,
    );
  });

  loanPage(app, deps);
}
