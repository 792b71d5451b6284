import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { authRoutes } from './api/auth.js';
import { creditOfferRoutes } from './api/credit-offers.js';
import { customerBiometricsRoutes } from './api/customer-biometrics.js';
import { customerDocumentRoutes } from './api/customer-documents.js';
import { customerRoutes } from './api/customers.js';
import { loanRoutes } from './api/loans.js';
import { buildOpenApiDocument } from './api/openapi/document.js';
import { sandboxCalendarRoutes } from './api/sandbox-calendar.js';
import { sandboxChaosRoutes } from './api/sandbox-chaos.js';
import { sandboxClockRoutes } from './api/sandbox-clock.js';
import { sandboxCreditRoutes } from './api/sandbox-credit.js';
import { sandboxDeliveryRoutes } from './api/sandbox-deliveries.js';
import { sandboxEventRoutes } from './api/sandbox-events.js';
import { sandboxFaultRoutes } from './api/sandbox-faults.js';
import { sandboxKycRoutes } from './api/sandbox-kyc.js';
import { sandboxPartnerLifetimeRoutes } from './api/sandbox-partner-lifetime.js';
import { sandboxPartnerRoutes } from './api/sandbox-partners.js';
import { sandboxProviderStateRoutes } from './api/sandbox-provider-states.js';
import { sandboxRequestRoutes } from './api/sandbox-requests.js';
import { sandboxResetRoutes } from './api/sandbox-reset.js';
import { sandboxScenarioRoutes } from './api/sandbox-scenarios.js';
import { sandboxSnapshotRoutes } from './api/sandbox-snapshots.js';
import { webhookEndpointRoutes } from './api/webhooks.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { ApiError } from './domain/errors.js';
import type { AppDeps } from './http/deps.js';
import { docsRoutes } from './http/docs.js';
import type { AppEnv } from './http/env.js';
import { errorResponse } from './http/error-answer.js';
import { hostedBiometricsRoutes } from './http/hosted-biometrics.js';
import { RouteTable } from './http/method-not-allowed.js';
import { httpMetrics, metricsHandler } from './http/metrics-route.js';
import { authenticate } from './http/middleware/authenticate.js';
import { durable } from './http/middleware/durable.js';
import { faults } from './http/middleware/faults.js';
import { IDEMPOTENT_POSTS, idempotency } from './http/middleware/idempotency.js';
import { rateLimit } from './http/middleware/rate-limit.js';
import { requestLog } from './http/middleware/request-log.js';
import { wellFormedText, wellFormedUrl } from './http/middleware/well-formed-text.js';
import { problemResponse } from './http/problem.js';
import type { createRouter } from './http/router.js';
import { registerSelfFetch, SELF_FETCH_ENV } from './http/self-fetch.js';
import { signingPageRoutes } from './http/signing-page.js';
import { bodyTooLarge } from './http/spec-status-table.js';
import { SplitRouter } from './http/split-router.js';

export { API_VERSION } from './api/openapi/document.js';
/** Largest request body accepted anywhere; endpoints may set lower limits of their own. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Paths whose routes the RegExpRouter cannot hold (see SplitRouter). */
export const KYC_CONTROL_PREFIX = '/v3/sandbox/customers/';
/** `…/snapshots/import` beside `…/snapshots/{name}/restore`: the same limit of the RegExpRouter. */
export const SNAPSHOT_PREFIX = '/v3/sandbox/snapshots/';

/** Every router mounted under /v3, in documentation order. */
const ROUTERS: ((deps: AppDeps) => ReturnType<typeof createRouter>)[] = [
  authRoutes,
  sandboxPartnerRoutes,
  sandboxPartnerLifetimeRoutes,
  sandboxClockRoutes,
  sandboxCalendarRoutes,
  sandboxEventRoutes,
  sandboxResetRoutes,
  sandboxSnapshotRoutes,
  customerRoutes,
  customerDocumentRoutes,
  customerBiometricsRoutes,
  sandboxKycRoutes,
  webhookEndpointRoutes,
  sandboxDeliveryRoutes,
  sandboxChaosRoutes,
  sandboxRequestRoutes,
  creditOfferRoutes,
  loanRoutes,
  sandboxCreditRoutes,
  sandboxScenarioRoutes,
  sandboxProviderStateRoutes,
];

/** Builds the whole sandbox as a Hono app; the node server only wires it to a port. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  // The sandbox's KYC control routes defeat Hono's fastest router; keep them on a router of their own.
  // strict: false serves `/v3/customers/` as `/v3/customers` (any method): a trailing slash a
  // client's URL joining adds must not turn into a 405 or 404.
  const app = new OpenAPIHono<AppEnv>({
    router: new SplitRouter(KYC_CONTROL_PREFIX, SNAPSHOT_PREFIX),
    strict: false,
  });
  // Read on use: the server learns its public URL only once it listens (port 0 picks one).
  const publicUrl = () => deps.config.publicUrl;

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => {
      throw bodyTooLarge(c.req.method, c.req.path, MAX_BODY_BYTES);
    },
  });
  // Reads skip the body check and the durability wait: inspecting the body of a GET makes the
  // Node adapter build a full Request object, and each middleware layer costs a promise per request.
  const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];
  // First: every answer is counted and timed, refusals and forwarded requests included.
  if (deps.metrics) app.use('*', httpMetrics(deps.metrics.recorder));
  if (deps.clusterGate) app.use('*', deps.clusterGate);
  // First, so it sees the final answer of every request, refusals by later middleware included.
  app.use('/v3/*', requestLog(deps));
  app.on(WRITES, '/v3/*', limitBody);
  app.use('/v3/*', authenticate(deps));
  app.use('/v3/*', rateLimit(deps));
  app.use('/v3/*', wellFormedUrl());
  // After the rate limit (a refused call is not faulted), before the idempotency cache (a lost
  // answer is cached there).
  app.use('/v3/*', faults(deps));
  app.on(WRITES, '/v3/*', durable(deps));
  // Before the body checks: a POST refused for its body (400) reached its operation and is cached
  // like any answer (spec idempotency rule 1); only 401, 429 and 5xx are not.
  app.on(
    'POST',
    IDEMPOTENT_POSTS.map((path) => `/v3${path}`),
    idempotency(deps),
  );
  app.on(WRITES, '/v3/*', wellFormedText());

  for (const routes of ROUTERS) app.route('/v3', routes(deps));
  app.route(
    '/v3',
    sandboxFaultRoutes(deps, () => apiRoutes(app)),
  );
  // The scenario runner sends its steps through this very app (the partner's exact path).
  registerSelfFetch(deps, async (request) => app.fetch(request, SELF_FETCH_ENV));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from POST /v3/auth/token (prefix svc_at_)',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: 'client_id:client_secret, only for POST /v3/auth/token',
  });
  // Built on first use (the public URL is known only once the server listens), then kept.
  let openApi: { url: string; body: string } | undefined;
  app.get('/v3/openapi.json', (c) => {
    if (openApi?.url !== publicUrl()) {
      openApi = { url: publicUrl(), body: JSON.stringify(buildOpenApiDocument(app, publicUrl())) };
    }
    return c.body(openApi.body, 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  app.route('/', docsRoutes());
  app.route('/', hostedBiometricsRoutes(deps));
  app.route('/', signingPageRoutes(deps));
  // The dashboard calls the API through this very app, like the scenario runner.
  app.route(
    '/',
    dashboardRoutes(deps, async (request, env) => app.fetch(request, env)),
  );
  app.get('/', (c) => c.redirect('/docs'));
  // Docker's HEALTHCHECK and load balancers read the status: 503 while the store cannot write.
  app.get('/healthz', (c) => {
    const health = deps.persistence.health;
    const storage = health.status();
    if (storage.writable) return c.json({ status: 'ok', storage });
    c.header('Retry-After', String(health.retryAfterSeconds));
    return c.json({ status: 'storage_unavailable', storage }, 503);
  });
  if (deps.metrics) app.get('/metrics', metricsHandler(deps.metrics.recorder, deps.metrics.access));

  let routeTable: RouteTable | undefined;
  app.notFound((c) => {
    routeTable ??= new RouteTable(
      app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route] : [])),
    );
    const allowed = routeTable.allowedMethods(c.req.path);
    if (allowed.length > 0) {
      return problemResponse(
        c,
        new ApiError(
          'method_not_allowed',
          `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(', ')}.`,
          {
            headers: { Allow: allowed.join(', ') },
          },
        ),
        publicUrl(),
      );
    }
    return problemResponse(
      c,
      new ApiError(
        'route_not_found',
        `No endpoint ${c.req.method} ${c.req.path}. See /v3/openapi.json or /docs.`,
      ),
      publicUrl(),
    );
  });

  // The one place an exception becomes an answer (a problem with the request id; on the spec's
  // table endpoints with a status of the row); never throws.
  app.onError((error, c) => errorResponse(c, error, deps, MAX_BODY_BYTES));
  return app;
}

/** The documented operations (path below /v3, `{param}` syntax), which fault rules name. */
function apiRoutes(app: OpenAPIHono<AppEnv>): { method: string; path: string }[] {
  return app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === 'route' ? [{ method: d.route.method, path: d.route.path.replace(/^\/v3(?=\/)/, '') }] : [],
  );
}
