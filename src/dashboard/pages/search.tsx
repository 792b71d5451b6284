/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { normalizeCpf } from '../../finance/cpf.js';
import { Badge, Empty } from '../components.js';
import { type DashboardDeps, type DashboardEnv, render } from '../context.js';
import { cpf } from '../format.js';
import { Layout } from '../layout.js';
import { ListTable } from '../list-table.js';
import { customersNamed, idPrefix, pageOf, SEARCHABLE_IDS } from '../search.js';

const SHOWN = 25;

/**
 * Search (the box in every page's header): an id of any kind (`cust_`, `co_`, `sim_`, `ln_`, `tx_`,
 * `we_`, `evt_`, `req_`) goes straight to the page that shows it; a CPF or an external_id to the
 * customers list; anything else is a name, listed here (case and accents ignored).
 */
export function searchPage(app: Hono<DashboardEnv>, { deps }: DashboardDeps) {
  app.get('/dashboard/search', async (c) => {
    const page = c.get('page');
    const q = (c.req.query('q') ?? '').trim().slice(0, 200);
    if (q === '') return c.redirect('/dashboard/customers', 303);
    const prefix = idPrefix(q);
    if (prefix) {
      const to = pageOf(deps.store, page.partnerId, q);
      if (to) return c.redirect(to, 303);
      return render(
        c,
        <Layout title="Search" section="overview" ctx={page}>
          <Empty title={`No ${SEARCHABLE_IDS[prefix]} ${q} for this partner.`}>
            Ids belong to one partner: check that you signed in with the partner that made it.
          </Empty>
        </Layout>,
        404,
      );
    }
    const byName = customersNamed(deps.store, page.partnerId, q, SHOWN + 1);
    if (byName.length === 0 && normalizeCpf(q))
      return c.redirect(`/dashboard/customers?q=${encodeURIComponent(q)}`, 303);
    return render(
      c,
      <Layout title={`Search: ${q}`} section="customers" ctx={page}>
        <ListTable
          id="search-results"
          rows={byName.slice(0, SHOWN)}
          row={(customer) => ({ 'data-customer': customer.id })}
          columns={[
            {
              label: 'Name',
              cell: (customer) => <a href={`/dashboard/customers/${customer.id}`}>{customer.name}</a>,
            },
            { label: 'CPF', cell: (customer) => cpf(customer.cpf) },
            { label: 'Status', cell: (customer) => <Badge status={customer.status} /> },
            { label: 'Id', cell: (customer) => <code>{customer.id}</code> },
          ]}
          empty={
            <Empty title={`No customer named like "${q}".`}>
              Search takes a name (any part, accents ignored), an id (<code>cust_…</code>, <code>ln_…</code>,{' '}
              <code>evt_…</code>, <code>req_…</code>…), or on the{' '}
              <a href={`/dashboard/customers?q=${encodeURIComponent(q)}`}>Customers</a> page a CPF or an
              external_id.
            </Empty>
          }
        />
        {byName.length > SHOWN ? <p class="muted">The newest {SHOWN} matches; narrow the search.</p> : null}
      </Layout>,
    );
  });
}
