/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { eventView } from '../../api/sandbox-events.js';
import { ALL_EVENT_PATTERNS, matchesPattern } from '../../engine/event-types.js';
import type { DashboardApi } from '../api-client.js';
import { Empty, Pager } from '../components.js';
import { afterAction, type DashboardDeps, type DashboardEnv, render } from '../context.js';
import { EventRow } from '../event-row.js';
import { Layout } from '../layout.js';
import type { ApiEvent, List, WebhookEndpoint } from '../types.js';
import { problemPage } from './problem.js';

/** Seconds between keep-alive comments on an idle stream (proxies close silent connections). */
const KEEP_ALIVE_MS = 15_000;
/** Events a reconnecting stream catches up on at most (those after its Last-Event-ID). */
const CATCH_UP_LIMIT = 100;
/** How soon a browser reconnects a broken stream (an instance stopped, the partner moved). */
const RECONNECT_MS = 1000;

/** Events: the partner's event log, newest first, live (Server-Sent Events), with Redeliver. */
export function eventPages(app: Hono<DashboardEnv>, { deps, bus }: DashboardDeps) {
  app.get('/dashboard/events', async (c) => {
    const page = c.get('page');
    const type = ALL_EVENT_PATTERNS.find((p) => p === c.req.query('type'));
    const after = c.req.query('starting_after');
    const [result, redeliver] = await Promise.all([
      c.get('api').get<List<ApiEvent>>('/v3/sandbox/events', { type, limit: 25, starting_after: after }),
      hasActiveEndpoint(c.get('api')),
    ]);
    if (!result.ok) return problemPage(c, 'events', result.problem, '/dashboard/events');
    const rows = result.body.data;
    // Only the first page grows live: new events are the newest.
    const live = !after;
    const stream = `/dashboard/events/stream${type ? `?type=${encodeURIComponent(type)}` : ''}`;
    return render(
      c,
      <Layout title="Events" section="events" ctx={page} live={live}>
        <form class="inline" method="get" action="/dashboard/events">
          <label>
            Type pattern
            <select name="type">
              {ALL_EVENT_PATTERNS.map((p) => (
                <option value={p === '*' ? '' : p} selected={p === (type ?? '*')}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Filter</button>
          {live ? (
            <span class="muted" id="live-note">
              New events appear here as they happen.
            </span>
          ) : null}
        </form>
        {redeliver ? null : (
          <p class="muted" id="no-endpoints">
            No active webhook endpoint, so nothing is delivered or redelivered:{' '}
            <a href="/dashboard/webhooks#add-endpoint">add one on Webhooks</a>.
          </p>
        )}
        {rows.length === 0 ? (
          <Empty title={type ? `No ${type} events yet.` : 'No events yet.'}>
            Every state change appends an event: register a customer with <code>POST /v3/customers</code>, or
            advance the clock on the <a href="/dashboard">Overview</a> to let timed moves happen.
          </Empty>
        ) : null}
        <div class="scroll">
          <table class="stack">
            <thead>
              <tr>
                <th>When (partner clock)</th>
                <th>Type</th>
                <th>Object</th>
                <th>Payload</th>
                <th />
              </tr>
            </thead>
            <tbody
              id="events"
              {...(live
                ? { 'hx-ext': 'sse', 'sse-connect': stream, 'sse-swap': 'event', 'hx-swap': 'afterbegin' }
                : {})}
            >
              {rows.map((event) => (
                <EventRow event={event} nowMs={page.nowMs} csrf={page.csrf} redeliver={redeliver} />
              ))}
            </tbody>
          </table>
        </div>
        <Pager
          base="/dashboard/events"
          params={{ type }}
          next={result.body.has_more ? rows.at(-1)?.id : undefined}
          first={!after}
        />
      </Layout>,
    );
  });

  app.get('/dashboard/events/stream', (c) => {
    const page = c.get('page');
    const type = ALL_EVENT_PATTERNS.find((p) => p === c.req.query('type')) ?? '*';
    // A reconnecting EventSource names the last event it showed: catch up from there.
    const lastEventId = c.req.header('last-event-id');
    // Behind nginx: pass each event on at once instead of buffering the response.
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const queue: ApiEvent[] = [];
      let wake: (() => void) | undefined;
      let moved = false;
      const stop = bus.listen(
        page.partnerId,
        (event) => {
          if (!matchesPattern(type, event.type)) return;
          queue.push(eventView(event));
          wake?.();
        },
        () => {
          // The partner left this instance: end the stream; the browser reconnects to its owner.
          moved = true;
          wake?.();
        },
      );
      stream.onAbort(() => {
        stop();
        wake?.();
      });
      await stream.write(`retry: ${RECONNECT_MS}\n\n`);
      if (lastEventId) {
        const missed = await eventsAfter(c.get('api'), type, lastEventId);
        // Events the listener got while the catch-up was read are not sent twice.
        const caught = new Set(missed.map((event) => event.id));
        const live = queue.splice(0).filter((event) => !caught.has(event.id));
        queue.push(...missed, ...live);
      }
      try {
        while (!stream.aborted && !moved) {
          const event = queue.shift();
          if (!event) {
            let timer: ReturnType<typeof setTimeout> | undefined;
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, KEEP_ALIVE_MS);
            });
            clearTimeout(timer);
            wake = undefined;
            if (queue.length === 0 && !stream.aborted && !moved) await stream.write(': keep-alive\n\n');
            continue;
          }
          const now = deps.engine.clock(page.partnerId).nowMs();
          const redeliver = await hasActiveEndpoint(c.get('api'));
          let html: string;
          try {
            html = await (
              <EventRow event={event} nowMs={now} csrf={page.csrf} redeliver={redeliver} />
            ).toString();
          } catch (error) {
            // One event that cannot be shown (a damaged row) is skipped; the stream goes on.
            deps.log.error(`dashboard event ${event.id} could not be shown`, error);
            continue;
          }
          await stream.writeSSE({ event: 'event', id: event.id, data: html });
        }
      } finally {
        stop();
      }
    });
  });

  app.post('/dashboard/events/:id/redeliver', async (c) => {
    const id = c.req.param('id');
    const result = await c
      .get('api')
      .post<{ deliveries: unknown[] }>(`/v3/sandbox/events/${encodeURIComponent(id)}/redeliver`);
    const count = result.ok ? result.body.deliveries.length : 0;
    return afterAction(
      c,
      result,
      '/dashboard/events',
      count === 0
        ? `No active endpoint subscribes to ${id}: nothing was sent. Add one on the Webhooks page.`
        : `${id} redelivered to ${count} endpoint${count === 1 ? '' : 's'}.`,
    );
  });
}

/**
 * The partner's events after `lastId`, oldest first (at most CATCH_UP_LIMIT): read through the API
 * newest first until that id. An id not among them (too old, or of another sandbox) gives them all.
 */
async function eventsAfter(api: DashboardApi, type: string, lastId: string): Promise<ApiEvent[]> {
  const result = await api.get<List<ApiEvent>>('/v3/sandbox/events', {
    type: type === '*' ? undefined : type,
    limit: CATCH_UP_LIMIT,
  });
  if (!result.ok) return [];
  const newer: ApiEvent[] = [];
  for (const event of result.body.data) {
    if (event.id === lastId) break;
    newer.push(event);
  }
  return newer.reverse();
}

/** Whether a redelivery would reach anything: the partner has an active endpoint. */
async function hasActiveEndpoint(api: DashboardEnv['Variables']['api']): Promise<boolean> {
  const endpoints = await api.get<List<WebhookEndpoint>>('/v3/webhooks/endpoints', { limit: 100 });
  return endpoints.ok && endpoints.body.data.some((endpoint) => endpoint.status === 'active');
}
