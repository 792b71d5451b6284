/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { normalizeCpf } from '../../finance/cpf.js';
import { Badge, Empty, When } from '../components.js';
import type { DashboardDeps, DashboardEnv } from '../context.js';
import { render } from '../context.js';
import { CUSTOMER_STATUSES } from '../counts.js';
import { cpf, words } from '../format.js';
import { Layout } from '../layout.js';
import { ListTable } from '../list-table.js';
import type { Customer, List } from '../types.js';
import { customerPage } from './customer.js';
import { problemPage } from './problem.js';

const PAGE_SIZE = 25;

/** Customers: a paginated list with search by CPF or external_id and a status filter. */
export function customerPages(app: Hono<DashboardEnv>, deps: DashboardDeps) {
  app.get('/dashboard/customers', async (c) => {
    const page = c.get('page');
    const q = (c.req.query('q') ?? '').trim();
    const status = CUSTOMER_STATUSES.find((s) => s === c.req.query('status'));
    const after = c.req.query('starting_after');
    // One search box: a valid CPF (bare or masked) searches by cpf, anything else by external_id.
    const search = q === '' ? {} : normalizeCpf(q) ? { cpf: q } : { external_id: q };
    const result = await c.get('api').get<List<Customer>>('/v3/customers', {
      ...search,
      status,
      limit: PAGE_SIZE,
      starting_after: after,
    });
    if (!result.ok) return problemPage(c, 'customers', result.problem, '/dashboard/customers');
    const rows = result.body.data;
    const next = result.body.has_more ? rows.at(-1)?.id : undefined;
    return render(
      c,
      <Layout title="Customers" section="customers" ctx={page}>
        <form class="inline" method="get" action="/dashboard/customers">
          <label>
            Search by CPF or external_id
            <input name="q" value={q} placeholder="123.456.789-09 or crm-42" />
          </label>
          <label>
            Status
            <select name="status">
              <option value="">any</option>
              {CUSTOMER_STATUSES.map((s) => (
                <option value={s} selected={s === status}>
                  {words(s)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Search</button>
        </form>
        <ListTable
          id="customers"
          rows={rows}
          row={(customer) => ({ 'data-customer': customer.id })}
          columns={[
            {
              label: 'Name',
              cell: (customer) => (
                <a href={`/dashboard/customers/${customer.id}`}>{customer.name ?? customer.id}</a>
              ),
            },
            { label: 'CPF', cell: (customer) => cpf(customer.cpf) },
            {
              label: 'external_id',
              cell: (customer) => customer.external_id ?? <span class="muted">—</span>,
            },
            { label: 'Status', cell: (customer) => <Badge status={customer.status} /> },
            {
              label: 'Created',
              head: 'Created (partner clock)',
              cell: (customer) => <When iso={customer.created_at} nowMs={page.nowMs} />,
            },
          ]}
          empty={
            q || status ? (
              <Empty title="No customer matches.">
                Check the CPF or external_id, or <a href="/dashboard/customers">clear the search</a>.
              </Empty>
            ) : (
              <Empty title="No customers yet.">
                Register one with <code>POST /v3/customers</code> (a CPF is enough), or run the{' '}
                <a href="/dashboard/scenarios">happy-path scenario</a>.
              </Empty>
            )
          }
          pager={{ base: '/dashboard/customers', params: { q: q || undefined, status }, next, first: !after }}
        />
      </Layout>,
    );
  });

  customerPage(app, deps);
}
