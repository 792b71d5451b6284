import { OpenAPIHono } from '@hono/zod-openapi';
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
import { Compression } from './http/pipeline/compression.js';
import { Entries } from './http/pipeline/entries.js';
import { compileOperation, createPipeline } from './http/pipeline/pipeline.js';
import { MAX_BODY_BYTES } from './http/pipeline/request-facts.js';
import { problemResponse } from './http/problem.js';
import { type createRouter, operationsOf } from './http/router.js';
import { registerSelfFetch, SELF_FETCH_ENV } from './http/self-fetch.js';
import { signingPageRoutes } from './http/signing-page.js';
import { SplitRouter } from './http/split-router.js';

export { API_VERSION } from './api/openapi/document.js';
export { MAX_BODY_BYTES };

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

const nodeEntries = new WeakMap<object, Entries>();

/** Node's entry of an app made by createApp (src/http/pipeline/entries.ts). */
export function nodeEntryOf(app: OpenAPIHono<AppEnv>): Entries {
  const entries = nodeEntries.get(app);
  if (!entries) throw new Error('not an app made by createApp');
  return entries;
}

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
  // First: every answer app.fetch gives is counted and timed, refusals and forwarded requests
  // included (Node's entry of the request path counts its own: src/http/pipeline/entries.ts).
  const counting = deps.metrics ? httpMetrics(deps.metrics.recorder) : undefined;
  if (counting) app.use('*', counting);
  // Shared mode: first after the metrics, on every request (it forwards a partner owned elsewhere).
  if (deps.clusterGate) app.use('*', deps.clusterGate);

  let routeTable: RouteTable | undefined;
  const unmatched = (c: { req: { method: string; path: string } }): ApiError => {
    routeTable ??= new RouteTable(
      app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route] : [])),
    );
    const allowed = routeTable.allowedMethods(c.req.path);
    if (allowed.length > 0) {
      return new ApiError(
        'method_not_allowed',
        `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(', ')}.`,
        { headers: { Allow: allowed.join(', ') } },
      );
    }
    return new ApiError(
      'route_not_found',
      `No endpoint ${c.req.method} ${c.req.path}. See /v3/openapi.json or /docs.`,
    );
  };
  // Every /v3 operation is one handler of this one path (src/http/pipeline/).
  const entries = new Entries(
    app,
    createPipeline(deps, unmatched),
    new Compression(),
    deps.metrics?.recorder,
    counting,
  );
  nodeEntries.set(app, entries);
  const mount = (router: OpenAPIHono<AppEnv>) => {
    app.route('/v3', router);
    for (const operation of operationsOf(router)) {
      const path = `/v3${operation.route.path.replaceAll(/\/{(.+?)}/g, '/:$1')}`;
      app.on(operation.route.method.toUpperCase(), path, entries.handlerFor(compileOperation(operation)));
    }
  };
  for (const routes of ROUTERS) mount(routes(deps));
  // The API's operations are all mounted by the time a rule is added: listed once, on first use.
  let operations: { method: string; path: string }[] | undefined;
  mount(sandboxFaultRoutes(deps, () => (operations ??= apiRoutes(app))));
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
  // Built on first use (the public URL is known only once the server listens), then kept; served
  // through the request path (Request-Id, compression), without credentials. Swagger UI reads the
  // 3.0 rendition (src/http/docs.ts).
  const documents = openApiDocuments(app, publicUrl);
  const openApiDocument = compileOperation({
    route: { method: 'get', path: '/openapi.json', responses: {} },
    middleware: [],
    handler: (c) => c.body(documents('3.1'), 200, { 'content-type': 'application/json; charset=utf-8' }),
  });
  app.get('/v3/openapi.json', entries.handlerFor(openApiDocument));

  app.route(
    '/',
    docsRoutes({ document: () => documents('3.0'), respond: (c, ...rest) => entries.respond(c, ...rest) }),
  );
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

  app.notFound((c) => {
    const path = c.req.path;
    if (path === '/v3' || path.startsWith('/v3/')) return entries.unmatched(c);
    return problemResponse(c, unmatched(c), publicUrl());
  });

  // The one place an exception becomes an answer (a problem with the request id; on the spec's
  // table endpoints with a status of the row); never throws.
  app.onError((error, c) => errorResponse(c, error, deps, MAX_BODY_BYTES));
  return app;
}

/** The OpenAPI document's JSON text in each version, made once per public URL. */
function openApiDocuments(app: OpenAPIHono<AppEnv>, publicUrl: () => string) {
  const kept = new Map<string, { url: string; body: string }>();
  return (version: '3.1' | '3.0'): string => {
    let document = kept.get(version);
    if (document?.url !== publicUrl()) {
      document = { url: publicUrl(), body: JSON.stringify(buildOpenApiDocument(app, publicUrl(), version)) };
      kept.set(version, document);
    }
    return document.body;
  };
}

/** The documented operations (path below /v3, `{param}` syntax), which fault rules name. */
function apiRoutes(app: OpenAPIHono<AppEnv>): { method: string; path: string }[] {
  return app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === 'route' ? [{ method: d.route.method, path: d.route.path.replace(/^\/v3(?=\/)/, '') }] : [],
  );
}
