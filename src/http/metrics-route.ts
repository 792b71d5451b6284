import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { type SandboxMetrics, UNMATCHED_ROUTE } from './metrics.js';

/** Who may read `GET /metrics` (see docs/scaling.md, "Metrics"). */
export interface MetricsAccess {
  /** A token the scrape must send as `Authorization: Bearer …` (`--metrics-token`). */
  token?: string | undefined;
  /** A hosted sandbox serves its metrics only with a token. */
  hosted: boolean;
}

// Hono's path of a route (`/v3/customers/:customer_id`) → its template (`/v3/customers/{customer_id}`),
// made once per route.
const templates = new Map<string, string>();

/**
 * The template of the route that answers a request, `unmatched` when none does. Middleware paths
 * end in `*` and routes never do, so the answering route is the last match that is not one: a few
 * entries from the end, whatever the path.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const path = (routes[i] as { path: string }).path;
    if (path.endsWith('*')) continue;
    let template = templates.get(path);
    if (template === undefined) {
      template = path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
      templates.set(path, template);
    }
    return template;
  }
  return UNMATCHED_ROUTE;
}

/** Counts and times every request (first in the chain, so refusals and forwards count too). */
export function httpMetrics(metrics: SandboxMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    metrics.observeRequest(
      c.req.method,
      routeTemplate(c),
      c.res.status,
      (performance.now() - started) / 1000,
    );
  };
}

/** `GET /metrics` in Prometheus text format, to whom may read it. */
export function metricsHandler(metrics: SandboxMetrics, access: MetricsAccess) {
  const token = access.token ? Buffer.from(`Bearer ${access.token}`) : undefined;
  return async (c: Context) => {
    if (token) {
      const sent = Buffer.from(c.req.header('authorization') ?? '');
      if (sent.length !== token.length || !timingSafeEqual(sent, token)) {
        return c.text(
          'GET /metrics needs "Authorization: Bearer <the --metrics-token of this sandbox>".\n',
          401,
          {
            'WWW-Authenticate': 'Bearer realm="metrics"',
          },
        );
      }
    } else if (access.hosted) {
      return c.text(
        'This sandbox is hosted: its metrics are served only with a token. Start it with --metrics-token <secret> (env CREDIT_SANDBOX_METRICS_TOKEN) and scrape with that bearer token.\n',
        403,
      );
    }
    return c.body(await metrics.text(), 200, { 'content-type': metrics.contentType });
  };
}
