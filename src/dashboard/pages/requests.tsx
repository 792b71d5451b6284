/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { RequestLogEntrySchema } from '../../api/schemas/requests.js';
import { Empty, Json, When } from '../components.js';
import { type DashboardDeps, type DashboardEnv, render } from '../context.js';
import { Layout } from '../layout.js';
import { ListTable } from '../list-table.js';
import type { List } from '../types.js';
import { problemPage } from './problem.js';

type LoggedRequest = z.infer<typeof RequestLogEntrySchema>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** 2xx green, 4xx amber, 5xx red: the same colours as the status badges. */
const StatusCode = ({ status }: { status: number }) => (
  <span
    class={`badge b-${status >= 500 ? 'red' : status >= 400 ? 'amber' : 'green'}`}
    data-http-status={status}
  >
    {status}
  </span>
);

/** The API-side fault rule that acted on a request (status 0: the connection was cut, no answer). */
const FaultNote = ({ fault }: { fault: NonNullable<LoggedRequest['fault']> }) => (
  <div class="badge b-amber" data-fault={fault.rule_id}>
    fault <code>{JSON.stringify(fault.action)}</code> by <a href="/dashboard/faults">{fault.rule_id}</a>
  </div>
);

/** Requests: the request inspector, newest first, with filters and each exchange's bodies. */
export function requestPages(app: Hono<DashboardEnv>, _deps: DashboardDeps) {
  app.get('/dashboard/requests', async (c) => {
    const page = c.get('page');
    const status = (c.req.query('status') ?? '').trim() || undefined;
    const method = METHODS.find((m) => m === c.req.query('method'));
    const path = (c.req.query('path') ?? '').trim() || undefined;
    const after = c.req.query('starting_after');
    const result = await c.get('api').get<List<LoggedRequest>>('/v3/sandbox/requests', {
      status,
      method,
      path,
      limit: 25,
      starting_after: after,
    });
    if (!result.ok) return problemPage(c, 'requests', result.problem, '/dashboard/requests');
    const rows = result.body.data;
    return render(
      c,
      <Layout title="Requests" section="requests" ctx={page}>
        <form class="inline" method="get" action="/dashboard/requests">
          <label>
            HTTP status
            <input name="status" value={status ?? ''} placeholder="4xx or 404" size={8} />
          </label>
          <label>
            Method
            <select name="method">
              <option value="">any</option>
              {METHODS.map((m) => (
                <option value={m} selected={m === method}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label>
            Path prefix
            <input name="path" value={path ?? ''} placeholder="/v3/loans" />
          </label>
          <button type="submit">Filter</button>
        </form>
        <ListTable
          id="requests"
          rows={rows}
          row={(r) => ({ 'data-request': r.id })}
          columns={[
            {
              label: 'When',
              head: 'When (partner clock)',
              cell: (r) => <When iso={r.created_at} nowMs={page.nowMs} />,
            },
            {
              label: 'Request',
              cell: (r) => (
                <>
                  <a href={`/dashboard/requests/${r.id}`}>
                    <code>
                      {r.method} {r.path}
                      {r.query ? `?${r.query}` : ''}
                    </code>
                  </a>
                  {r.error_code ? <div class="muted">{r.error_code}</div> : null}
                  {r.fault ? <FaultNote fault={r.fault} /> : null}
                </>
              ),
            },
            { label: 'Status', cell: (r) => <StatusCode status={r.status} /> },
            { label: 'Duration', num: true, cell: (r) => `${r.duration_ms.toFixed(1)} ms` },
            {
              label: 'Idempotency-Key',
              cell: (r) =>
                r.idempotency_key ? (
                  <>
                    <code>{r.idempotency_key}</code>
                    {r.idempotent_replayed ? <span class="muted"> · replayed</span> : null}
                  </>
                ) : (
                  <span class="muted">—</span>
                ),
            },
          ]}
          empty={
            <Empty title={status || method || path ? 'No request matches.' : 'No requests yet.'}>
              Every authenticated API request of this partner is kept here (the last 1,000 by default), with
              its bodies and secrets redacted. Send one, e.g. <code>GET /v3/customers</code>.
            </Empty>
          }
          pager={{
            base: '/dashboard/requests',
            params: { status, method, path },
            next: result.body.has_more ? rows.at(-1)?.id : undefined,
            first: !after,
          }}
        />
      </Layout>,
    );
  });

  app.get('/dashboard/requests/:id', async (c) => {
    const page = c.get('page');
    const found = await c
      .get('api')
      .get<LoggedRequest>(`/v3/sandbox/requests/${encodeURIComponent(c.req.param('id'))}`);
    if (!found.ok) return problemPage(c, 'requests', found.problem, '/dashboard/requests');
    const r = found.body;
    return render(
      c,
      <Layout title={`${r.method} ${r.path}`} section="requests" ctx={page}>
        <section class="card">
          <dl class="facts">
            <dt>Request-Id</dt>
            <dd>
              <code>{r.id}</code>
            </dd>
            <dt>Status</dt>
            <dd>
              <StatusCode status={r.status} /> {r.error_code ? <code>{r.error_code}</code> : null}
            </dd>
            <dt>When</dt>
            <dd>
              <When iso={r.created_at} nowMs={page.nowMs} />
            </dd>
            <dt>Duration</dt>
            <dd>{r.duration_ms.toFixed(1)} ms (real time)</dd>
            <dt>Query</dt>
            <dd>{r.query ? <code>{r.query}</code> : '—'}</dd>
            <dt>Idempotency-Key</dt>
            <dd>
              {r.idempotency_key ?? '—'}
              {r.idempotent_replayed ? ' (replayed)' : ''}
            </dd>
            {r.fault ? (
              <>
                <dt>Fault</dt>
                <dd>
                  <FaultNote fault={r.fault} />
                </dd>
              </>
            ) : null}
          </dl>
        </section>
        <h2>Request headers</h2>
        <Json value={r.request_headers} />
        <h2>Request body</h2>
        {r.request_body === null || r.request_body === undefined ? (
          <p class="muted">none</p>
        ) : (
          <Json value={r.request_body} />
        )}
        <h2>Response body</h2>
        {r.response_body === null || r.response_body === undefined ? (
          <p class="muted">none</p>
        ) : (
          <Json value={r.response_body} />
        )}
        <p>
          <a href="/dashboard/requests">All requests</a>
        </p>
      </Layout>,
    );
  });
}
