/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { DELIVERY_STATUSES } from '../../store/webhook-records.js';
import { Badge, Empty, When } from '../components.js';
import { type DashboardDeps, type DashboardEnv, render } from '../context.js';
import { utc } from '../format.js';
import { Layout } from '../layout.js';
import { ListTable } from '../list-table.js';
import type { Chaos, Delivery, List, WebhookEndpoint } from '../types.js';
import { problemPage } from './problem.js';
import { AddEndpointForm, RotateSecret, webhookEndpointActions } from './webhook-endpoint-actions.js';

const percent = (rate: number) => `${Math.round(rate * 1000) / 10} %`;

/** An endpoint's chaos settings in words ("off" when none). */
const ChaosSettings = ({ chaos }: { chaos: Chaos | undefined }) => {
  if (!chaos?.enabled) return <span class="muted">off</span>;
  const parts = [
    chaos.duplicate_rate > 0 ? `duplicates ${percent(chaos.duplicate_rate)}` : '',
    chaos.drop_rate > 0 ? `drops ${percent(chaos.drop_rate)}` : '',
    chaos.max_delay ? `delay up to ${chaos.max_delay}` : '',
    chaos.reorder ? 'reorder' : '',
  ].filter(Boolean);
  return (
    <span class="badge b-amber" data-chaos="on">
      {parts.length > 0 ? parts.join(' · ') : 'on (all rates 0)'}
    </span>
  );
};

/** What chaos did to one delivery, one line per act. */
const ChaosActs = ({ delivery }: { delivery: Delivery }) =>
  delivery.chaos.length === 0 ? null : (
    <ul class="muted" data-chaos-acts>
      {delivery.chaos.map((act) => (
        <li>
          chaos {act.act}
          {act.act === 'delayed' && act.delay_ms !== null
            ? ` the first attempt by ${act.delay_ms / 1000} s`
            : ''}
          {act.act === 'dropped' && act.attempt_number !== null ? ` attempt ${act.attempt_number}` : ''}
          {act.act === 'duplicate' && act.duplicate_delivery_id ? ` → ${act.duplicate_delivery_id}` : ''} at{' '}
          {utc(act.at)}
        </li>
      ))}
    </ul>
  );

const Attempts = ({ delivery }: { delivery: Delivery }) =>
  delivery.attempts.length === 0 ? (
    <span class="muted">
      no attempt yet{delivery.next_attempt_at ? ` · first at ${utc(delivery.next_attempt_at)}` : ''}
    </span>
  ) : (
    <ol class="steps">
      {delivery.attempts.map((a) => (
        <li data-attempt={a.attempt_number}>
          {utc(a.attempted_at)} →{' '}
          <strong data-receiver-status={a.status_code ?? 'none'}>
            {a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`}
          </strong>{' '}
          in {a.duration_ms} ms{a.error ? <span class="muted"> · {a.error}</span> : null}
          {a.next_attempt_at ? <span class="muted"> · retry at {utc(a.next_attempt_at)}</span> : null}
          {a.response_body ? (
            <pre class="answer" data-receiver-body title="The receiver's answer (first 4 KB)">
              {a.response_body}
            </pre>
          ) : null}
        </li>
      ))}
    </ol>
  );

/** Webhooks: the endpoints and every delivery with its attempts (receiver status and timing). */
export function webhookPages(app: Hono<DashboardEnv>, deps: DashboardDeps) {
  webhookEndpointActions(app, deps);
  app.get('/dashboard/webhooks', async (c) => {
    const page = c.get('page');
    const api = c.get('api');
    const status = DELIVERY_STATUSES.find((s) => s === c.req.query('status'));
    const endpointId = c.req.query('endpoint_id') || undefined;
    const after = c.req.query('starting_after');
    const [endpoints, deliveries] = await Promise.all([
      api.get<List<WebhookEndpoint>>('/v3/webhooks/endpoints', { limit: 100 }),
      api.get<List<Delivery>>('/v3/sandbox/deliveries', {
        status,
        endpoint_id: endpointId,
        limit: 25,
        starting_after: after,
      }),
    ]);
    if (!endpoints.ok) return problemPage(c, 'webhooks', endpoints.problem, '/dashboard/webhooks');
    // One small read per endpoint (partners have a handful); a failed read shows as unknown.
    const chaos = new Map<string, Chaos>();
    await Promise.all(
      endpoints.body.data.map(async (endpoint) => {
        const got = await api.get<Chaos>(`/v3/sandbox/webhooks/endpoints/${endpoint.id}/chaos`);
        if (got.ok) chaos.set(endpoint.id, got.body);
      }),
    );
    if (!deliveries.ok) return problemPage(c, 'webhooks', deliveries.problem, '/dashboard/webhooks');
    const rows = deliveries.body.data;
    return render(
      c,
      <Layout title="Webhooks" section="webhooks" ctx={page}>
        <h2>Endpoints</h2>
        <AddEndpointForm csrf={page.csrf} />
        <ListTable
          id="endpoints"
          rows={endpoints.body.data}
          row={(endpoint) => ({ 'data-endpoint': endpoint.id })}
          columns={[
            {
              label: 'Endpoint',
              cell: (endpoint) => (
                <>
                  <a href={`/dashboard/webhooks?endpoint_id=${endpoint.id}`}>{endpoint.id}</a>
                  {endpoint.description ? <div class="muted">{endpoint.description}</div> : null}
                </>
              ),
            },
            { label: 'URL', cell: (endpoint) => <code>{endpoint.url}</code> },
            {
              label: 'Events',
              cell: (endpoint) => (endpoint.events.length === 0 ? '*' : endpoint.events.join(', ')),
            },
            { label: 'Status', cell: (endpoint) => <Badge status={endpoint.status} /> },
            { label: 'Chaos', cell: (endpoint) => <ChaosSettings chaos={chaos.get(endpoint.id)} /> },
            {
              label: 'Created',
              head: 'Created (partner clock)',
              cell: (endpoint) => <When iso={endpoint.created_at} nowMs={page.nowMs} />,
            },
            { cell: (endpoint) => <RotateSecret endpointId={endpoint.id} csrf={page.csrf} /> },
          ]}
          empty={
            <Empty title="No webhook endpoints.">
              Add one above (or with <code>POST /v3/webhooks/endpoints</code>), or listen locally with{' '}
              <code>npx credit-sandbox listen</code>; every event is then delivered and shows up below.
            </Empty>
          }
        />
        <h2>Deliveries</h2>
        <form class="inline" method="get" action="/dashboard/webhooks">
          {endpointId ? <input type="hidden" name="endpoint_id" value={endpointId} /> : null}
          <label>
            Delivery status
            <select name="status">
              <option value="">any</option>
              {DELIVERY_STATUSES.map((s) => (
                <option value={s} selected={s === status}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Filter</button>
          {endpointId ? <a href="/dashboard/webhooks">All endpoints</a> : null}
        </form>
        <ListTable
          id="deliveries"
          rows={rows}
          row={(delivery) => ({ 'data-delivery': delivery.id, 'data-status': delivery.status })}
          columns={[
            {
              label: 'Event',
              cell: (delivery) => (
                <>
                  <code>{delivery.event_type}</code>
                  <div class="muted">
                    {delivery.event_id}
                    {delivery.trigger === 'redeliver' ? ' · redelivery' : ''}
                    {delivery.trigger === 'duplicate' ? ' · duplicate sent by chaos' : ''}
                  </div>
                </>
              ),
            },
            { label: 'Endpoint', cell: (delivery) => delivery.endpoint_id },
            { label: 'Status', cell: (delivery) => <Badge status={delivery.status} /> },
            {
              label: 'Attempts',
              head: 'Attempts (partner clock → receiver answer, real duration)',
              cell: (delivery) => (
                <>
                  <ChaosActs delivery={delivery} />
                  <Attempts delivery={delivery} />
                </>
              ),
            },
          ]}
          empty={
            <Empty title="No deliveries.">
              Deliveries appear when an event matches an active endpoint. Trigger one by moving something,
              e.g. advance the clock on the <a href="/dashboard">Overview</a>.
            </Empty>
          }
          pager={{
            base: '/dashboard/webhooks',
            params: { status, endpoint_id: endpointId },
            next: deliveries.body.has_more ? rows.at(-1)?.id : undefined,
            first: !after,
          }}
        />
      </Layout>,
    );
  });
}
