/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Badge, Empty, Money, When } from '../components.js';
import type { DashboardDeps, DashboardEnv } from '../context.js';
import { render } from '../context.js';
import { LOAN_STATUSES, statusCounts } from '../counts.js';
import { words } from '../format.js';
import { Layout } from '../layout.js';
import { ListTable } from '../list-table.js';
import { customerName, overdueInstallments } from '../names.js';
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
    const store = deps.deps.store;
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
        <ListTable
          id="loans"
          rows={rows}
          row={(loan) => ({ 'data-loan': loan.id })}
          columns={[
            {
              label: 'Loan',
              cell: (loan) => (
                <>
                  <a href={`/dashboard/loans/${loan.id}`}>{loan.id}</a>
                  {loan.ccb_number ? <div class="muted">contract {loan.ccb_number}</div> : null}
                </>
              ),
            },
            {
              label: 'Status',
              cell: (loan) => {
                const overdue = overdueInstallments(store, page.partnerId, loan.id);
                return (
                  <>
                    <Badge status={loan.status} />
                    {overdue > 0 ? (
                      <span class="badge b-red" data-overdue={String(overdue)}>
                        {overdue} overdue
                      </span>
                    ) : null}
                  </>
                );
              },
            },
            { label: 'Requested', num: true, cell: (loan) => <Money value={loan.requested_amount} /> },
            {
              label: 'Installments',
              num: true,
              cell: (loan) => (
                <>
                  {loan.installments} × <Money value={loan.installments_value} />
                </>
              ),
            },
            {
              label: 'Customer',
              cell: (loan) => (
                <a href={`/dashboard/customers/${loan.customer_id}`} title={loan.customer_id}>
                  {customerName(store, page.partnerId, loan.customer_id) ?? loan.customer_id}
                </a>
              ),
            },
            {
              label: 'Created',
              head: 'Created (partner clock)',
              cell: (loan) => <When iso={loan.created_at} nowMs={page.nowMs} />,
            },
          ]}
          empty={
            <Empty title={status ? `No ${words(status)} loans.` : 'No loans yet.'}>
              A loan starts from an available offer: simulate it (
              <code>POST /v3/credit-offers/&lt;id&gt;/simulations</code>) and send <code>POST /v3/loans</code>
              , or run the <a href="/dashboard/scenarios">happy-path scenario</a>.
            </Empty>
          }
          pager={{
            base: '/dashboard/loans',
            params: { status },
            next: result.body.has_more ? rows.at(-1)?.id : undefined,
            first: !after,
          }}
        />
      </Layout>,
    );
  });

  loanPage(app, deps);
}
