/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Action, Csrf, Empty } from '../components.js';
import { afterAction, type DashboardDeps, type DashboardEnv, field, render } from '../context.js';
import { statusCounts } from '../counts.js';
import { EventRow } from '../event-row.js';
import { clockOffset, utc, words } from '../format.js';
import { Layout } from '../layout.js';
import type { ApiEvent, List } from '../types.js';

const Counts = ({
  title,
  href,
  counts,
}: {
  title: string;
  href?: string;
  counts: Record<string, number>;
}) => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return (
    <section class="card" aria-label={title}>
      <h2 style="margin-top:0">
        {title} <span class="muted">{total}</span>
      </h2>
      {Object.entries(counts).map(([status, n]) => (
        <div class="stat" data-count={status}>
          {href ? <a href={`${href}?status=${status}`}>{words(status)}</a> : <span>{words(status)}</span>}
          <strong>{n}</strong>
        </div>
      ))}
    </section>
  );
};

/** Overview: the partner clock and its controls, counts by status, the newest events. */
export function overviewPage(app: Hono<DashboardEnv>, { deps }: DashboardDeps) {
  app.get('/dashboard', async (c) => {
    const page = c.get('page');
    const counts = statusCounts(deps.store, page.partnerId);
    const events = await c.get('api').get<List<ApiEvent>>('/v3/sandbox/events', { limit: 10 });
    const list = events.ok ? events.body.data : [];
    return render(
      c,
      <Layout title="Overview" section="overview" ctx={page}>
        <section class="card" aria-label="Partner clock">
          <h2 style="margin-top:0">Partner clock</h2>
          <p>
            <strong>{utc(new Date(page.nowMs).toISOString())}</strong> · {page.frozen ? 'frozen' : 'running'}{' '}
            · {clockOffset(page.nowMs, page.realNowMs)} (real time{' '}
            {utc(new Date(page.realNowMs).toISOString())})
          </p>
          <form class="inline" method="post" action="/dashboard/clock/advance">
            <Csrf token={page.csrf} />
            <label>
              Advance by
              <input name="by" placeholder="35d" pattern="\d{1,7}[smhd]" size={8} required />
            </label>
            <button type="submit" class="primary">
              Advance
            </button>
          </form>
          <span class="muted">s, m, h or d: 90s, 15m, 2h, 35d. Due jobs run on the way.</span>
          <div style="margin-top:.6rem">
            <Action action="/dashboard/clock/freeze" label="Freeze" csrf={page.csrf} />
            <Action action="/dashboard/clock/resume" label="Resume" csrf={page.csrf} />
          </div>
        </section>
        <div class="grid">
          <Counts title="Customers" href="/dashboard/customers" counts={counts.customers} />
          <Counts title="Credit offers" counts={counts.offers} />
          <Counts title="Loans" href="/dashboard/loans" counts={counts.loans} />
          <Counts title="Installments" counts={counts.installments} />
        </div>
        <h2>Newest events</h2>
        {list.length === 0 ? (
          <Empty title="No events yet.">
            Register a customer with <code>POST /v3/customers</code> or run a scenario from the{' '}
            <a href="/dashboard/scenarios">Scenarios</a> page; every state change shows up here.
          </Empty>
        ) : (
          <div class="scroll">
            <table class="stack">
              <thead>
                <tr>
                  <th>When (partner clock)</th>
                  <th>Type</th>
                  <th>Object</th>
                  <th>Payload</th>
                </tr>
              </thead>
              <tbody>
                {list.map((event) => (
                  <EventRow event={event} nowMs={page.nowMs} />
                ))}
              </tbody>
            </table>
            <p>
              <a href="/dashboard/events">All events, live</a>
            </p>
          </div>
        )}
      </Layout>,
    );
  });

  app.post('/dashboard/clock/advance', async (c) => {
    const by = field(await c.req.parseBody(), 'by');
    const result = await c.get('api').post('/v3/sandbox/clock/advance', { by });
    return afterAction(c, result, '/dashboard', `Clock advanced by ${by}.`);
  });
  for (const move of ['freeze', 'resume'] as const) {
    app.post(`/dashboard/clock/${move}`, async (c) => {
      const result = await c.get('api').post(`/v3/sandbox/clock/${move}`);
      return afterAction(c, result, '/dashboard', move === 'freeze' ? 'Clock frozen.' : 'Clock running.');
    });
  }
}
