/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Action, Badge, Csrf, Empty, Money, When } from '../components.js';
import { afterAction, type DashboardDeps, type DashboardEnv, field, render } from '../context.js';
import { cpf } from '../format.js';
import { Layout, type PageContext } from '../layout.js';
import type { CreditOffer, Customer, List, Loan } from '../types.js';
import { problemPage } from './problem.js';

const CORRECTABLE = ['name', 'email', 'phone', 'cnpj', 'trading_name'];

const KycTable = ({ customer, ctx }: { customer: Customer; ctx: PageContext }) => (
  <div class="scroll">
    <table class="stack" id="kyc">
      <thead>
        <tr>
          <th>Requirement</th>
          <th>Status</th>
          <th>Message</th>
          <th>Uploaded (partner clock)</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {customer.kyc.map((item) => (
          <tr data-kyc={item.type}>
            <td data-label="Requirement">
              {item.description} <span class="muted">{item.type}</span>
            </td>
            <td data-label="Status">
              <Badge status={item.status} />
            </td>
            <td data-label="Message">{item.message ?? <span class="muted">—</span>}</td>
            <td data-label="Uploaded">
              <When iso={item.uploaded_at} nowMs={ctx.nowMs} />
            </td>
            <td data-label="Actions">
              {item.kind === 'document' && item.type !== 'biometrics' && item.status === 'submitted' ? (
                <Action
                  action={`/dashboard/customers/${customer.id}/kyc/reject`}
                  label="Reject"
                  tone="danger"
                  csrf={ctx.csrf}
                >
                  <input type="hidden" name="type" value={item.type} />
                  <input
                    name="message"
                    aria-label={`Reason to reject ${item.type}`}
                    placeholder="reason"
                    size={14}
                  />
                </Action>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

const OffersTable = ({ offers, ctx }: { offers: CreditOffer[]; ctx: PageContext }) =>
  offers.length === 0 ? (
    <Empty title="No credit offers.">
      Offers are generated when the customer becomes active: submit every KYC item, then press "Approve KYC"
      above.
    </Empty>
  ) : (
    <div class="scroll">
      <table class="stack" id="offers">
        <thead>
          <tr>
            <th>Offer</th>
            <th>Status</th>
            <th class="num">Approved amount</th>
            <th class="num">Minimum</th>
            <th class="num">Rate</th>
            <th class="num">Installments</th>
            <th>Valid until (partner clock)</th>
          </tr>
        </thead>
        <tbody>
          {offers.map((offer) => (
            <tr data-offer={offer.id}>
              <td data-label="Offer">
                <code>{offer.id}</code>
              </td>
              <td data-label="Status">
                <Badge status={offer.status} />
              </td>
              <td data-label="Approved amount" class="num">
                <Money value={offer.approved_amount} />
              </td>
              <td data-label="Minimum" class="num">
                <Money value={offer.min_amount} />
              </td>
              <td data-label="Rate" class="num">
                {offer.interest_rate}% a month
              </td>
              <td data-label="Installments" class="num">
                {'installments' in offer
                  ? String(offer.installments)
                  : `${String(offer.min_installments)}–${String(offer.max_installments)}`}
              </td>
              <td data-label="Valid until">
                <When iso={offer.valid_until} nowMs={ctx.nowMs} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );

/** A customer: facts, KYC items with the review controls, offers and loans. */
export function customerPage(app: Hono<DashboardEnv>, _deps: DashboardDeps) {
  app.get('/dashboard/customers/:id', async (c) => {
    const ctx = c.get('page');
    const id = c.req.param('id');
    const api = c.get('api');
    const found = await api.get<Customer>(`/v3/customers/${encodeURIComponent(id)}`);
    if (!found.ok) return problemPage(c, 'customers', found.problem, '/dashboard/customers');
    const customer = found.body;
    const [offers, loans] = await Promise.all([
      api.get<List<CreditOffer>>(`/v3/customers/${customer.id}/credit-offers`, { limit: 100 }),
      api.get<List<Loan>>('/v3/loans', { customer_id: customer.id, limit: 100 }),
    ]);
    const base = `/dashboard/customers/${customer.id}`;
    return render(
      c,
      <Layout title={customer.name ?? customer.id} section="customers" ctx={ctx}>
        <section class="card">
          <p>
            <Badge status={customer.status} /> <code>{customer.id}</code>
          </p>
          <dl class="facts">
            <dt>CPF</dt>
            <dd>{cpf(customer.cpf)}</dd>
            <dt>CNPJ</dt>
            <dd>{customer.cnpj ?? '—'}</dd>
            <dt>E-mail</dt>
            <dd>{customer.email ?? '—'}</dd>
            <dt>Phone</dt>
            <dd>{customer.phone ?? '—'}</dd>
            <dt>external_id</dt>
            <dd>{customer.external_id ?? '—'}</dd>
            <dt>Created</dt>
            <dd>
              <When iso={customer.created_at} nowMs={ctx.nowMs} />
            </dd>
          </dl>
        </section>
        <h2>KYC</h2>
        {customer.status === 'active' ? (
          <p class="muted">KYC approved: the customer is active.</p>
        ) : (
          <div class="card">
            {/* Only the moves the API would take now (docs/dashboard.md). */}
            {customer.kyc.some((item) => item.status === 'submitted') ? (
              <Action action={`${base}/kyc/approve`} label="Approve KYC" tone="primary" csrf={ctx.csrf} />
            ) : null}
            {customer.kyc.some((item) => item.type === 'biometrics' && item.status !== 'approved') ? (
              <Action action={`${base}/biometrics/complete`} label="Complete biometrics" csrf={ctx.csrf}>
                <label>
                  Outcome
                  <select name="outcome">
                    <option value="approved">approved</option>
                    <option value="rejected">rejected</option>
                  </select>
                </label>
              </Action>
            ) : null}
            <form class="inline" method="post" action={`${base}/kyc/correction`}>
              <Csrf token={ctx.csrf} />
              <label>
                Field
                <select name="type">
                  {CORRECTABLE.map((f) => (
                    <option value={f}>{f}</option>
                  ))}
                </select>
              </label>
              <label>
                Message
                <input name="message" placeholder="what to fix" size={16} />
              </label>
              <button type="submit">Request correction</button>
            </form>
            <p class="muted">
              "Approve KYC" appears when an item is submitted and approves every submitted one; items still
              pending need the customer's upload first. "Complete biometrics" opens a capture session and
              finishes it, as the person on the hosted page would.
            </p>
          </div>
        )}
        <KycTable customer={customer} ctx={ctx} />
        <h2>Credit offers</h2>
        <OffersTable offers={offers.ok ? offers.body.data : []} ctx={ctx} />
        <h2>Loans</h2>
        {loans.ok && loans.body.data.length > 0 ? (
          <ul>
            {loans.body.data.map((loan) => (
              <li>
                <a href={`/dashboard/loans/${loan.id}`}>{loan.id}</a> <Badge status={loan.status} />{' '}
                <Money value={loan.requested_amount} />
              </li>
            ))}
          </ul>
        ) : (
          <Empty title="No loans.">
            Simulate an available offer (<code>POST /v3/credit-offers/&lt;id&gt;/simulations</code>) and
            contract it with <code>POST /v3/loans</code>.
          </Empty>
        )}
      </Layout>,
    );
  });

  const path = (id: string) => `/v3/sandbox/customers/${encodeURIComponent(id)}`;
  const back = (id: string) => `/dashboard/customers/${encodeURIComponent(id)}`;

  app.post('/dashboard/customers/:id/kyc/approve', async (c) => {
    const id = c.req.param('id');
    const result = await c.get('api').post(`${path(id)}/kyc/approve`);
    return afterAction(c, result, back(id), 'Every submitted KYC item was approved.');
  });
  app.post('/dashboard/customers/:id/biometrics/complete', async (c) => {
    const id = c.req.param('id');
    const outcome = field(await c.req.parseBody(), 'outcome');
    // As the person would: open a capture session (the customer's app does), then finish it.
    const opened = await c.get('api').post(`/v3/customers/${encodeURIComponent(id)}/biometrics`);
    const result = opened.ok
      ? await c.get('api').post(`${path(id)}/biometrics/complete`, { outcome })
      : opened;
    return afterAction(c, result, back(id), `Biometrics completed: ${outcome}.`);
  });
  app.post('/dashboard/customers/:id/kyc/reject', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const type = field(form, 'type');
    const message = field(form, 'message');
    const result = await c
      .get('api')
      .post(`${path(id)}/kyc/${encodeURIComponent(type)}/reject`, message ? { message } : {});
    return afterAction(c, result, back(id), `${type} rejected.`);
  });
  app.post('/dashboard/customers/:id/kyc/correction', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const type = field(form, 'type');
    const message = field(form, 'message');
    const result = await c
      .get('api')
      .post(`${path(id)}/kyc/${encodeURIComponent(type)}/request-correction`, message ? { message } : {});
    return afterAction(c, result, back(id), `Correction of ${type} requested.`);
  });
}
