/** @jsxImportSource hono/jsx */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppDeps } from '../http/deps.js';
import { type AppFetch, callApi, sessionApi } from './api-client.js';
import { cookieOptions, type DashboardEnv, field, redirectWith, render, takeFlash } from './context.js';
import { EventBus } from './event-bus.js';
import { customerPages } from './pages/customers.js';
import { eventPages } from './pages/events.js';
import { faultPages } from './pages/faults.js';
import { loanPages } from './pages/loans.js';
import { overviewPage } from './pages/overview.js';
import { requestPages } from './pages/requests.js';
import { scenarioPages } from './pages/scenarios.js';
import { searchPage } from './pages/search.js';
import { SignInPage } from './pages/sign-in.js';
import { MAX_IMPORT_UPLOAD } from './pages/snapshot-files.js';
import { snapshotPages } from './pages/snapshots.js';
import { webhookPages } from './pages/webhooks.js';
import {
  csrfToken,
  openSession,
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  SIGN_IN_COOKIE,
  sealSession,
  sessionKey,
  signInToken,
  validCsrf,
  validSignInToken,
} from './session.js';

const require = createRequire(import.meta.url);
/** htmx and its SSE extension, served from their npm packages (no CDN, no build step). */
const ASSETS: Record<string, string> = {
  'htmx.min.js': require.resolve('htmx.org/dist/htmx.min.js'),
  'sse.js': require.resolve('htmx-ext-sse/sse.js'),
};

/**
 * The dashboard at /dashboard: server-rendered pages for one signed-in partner. Reads and actions go
 * through the app's own /v3 routes with a token of the session's credential, so every move takes the
 * same path as an API call (auth, rate limit, validation, state machines, events).
 */
export function dashboardRoutes(deps: AppDeps, fetch: AppFetch): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  const key = () => sessionKey(deps.store.meta.signing_key);
  const assets = new Map<string, string>();

  // '/dashboard/*' also matches '/dashboard' itself.
  app.use('/dashboard/*', compress());
  app.use('/dashboard/*', (c, next) => {
    c.set('publicHttps', deps.config.publicUrl.startsWith('https://'));
    return next();
  });
  app.use('/dashboard/*', async (c, next) => {
    await next();
    if (c.req.path.startsWith('/dashboard/assets/')) return;
    c.header('Cache-Control', 'no-store');
    c.header('X-Frame-Options', 'DENY');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'same-origin');
    c.header(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
    );
  });
  // Forms are small; the snapshot import form carries an exported file (a snapshot's own bound).
  const formLimit = bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.text('Form too large', 413) });
  const fileLimit = bodyLimit({
    maxSize: MAX_IMPORT_UPLOAD,
    onError: (c) => c.text('File too large: a snapshot holds at most 16 MiB', 413),
  });
  app.use('/dashboard/*', (c, next) =>
    c.req.path === '/dashboard/snapshot-files/import' ? fileLimit(c, next) : formLimit(c, next),
  );

  app.get('/dashboard/assets/:name', (c) => {
    const name = c.req.param('name');
    const path = ASSETS[name];
    if (!path) return c.notFound();
    let text = assets.get(name);
    if (text === undefined) {
      text = readFileSync(path, 'utf8');
      assets.set(name, text);
    }
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(text);
  });

  const signInForm = (c: Parameters<MiddlewareHandler>[0], error?: string, clientId?: string) => {
    const nonce = deps.randomBytes(16).toString('base64url');
    setCookie(c, SIGN_IN_COOKIE, nonce, cookieOptions(c, 3600));
    return render(
      c,
      <SignInPage token={signInToken(nonce, key())} error={error} clientId={clientId} />,
      error ? 401 : 200,
    );
  };

  app.get('/dashboard/sign-in', (c) => signInForm(c));

  app.post('/dashboard/sign-in', async (c) => {
    const form = await c.req.parseBody();
    if (!validSignInToken(getCookie(c, SIGN_IN_COOKIE), key(), form._csrf)) {
      return signInForm(c, 'The sign-in form expired; please try again.');
    }
    const clientId = field(form, 'client_id');
    const secret = typeof form.client_secret === 'string' ? form.client_secret : '';
    // The secret goes to the token endpoint like any client's, and is then forgotten.
    const result = await callApi<{ access_token: string }>(
      fetch,
      new Request('http://dashboard.internal/v3/auth/token', {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
      }),
    );
    const credential = deps.store.credentials.get(clientId);
    if (!result.ok || !credential) {
      const detail = result.ok ? 'Unknown client_id.' : result.problem.detail;
      return signInForm(c, `Sign-in failed: ${detail}`, clientId);
    }
    const session = {
      partnerId: credential.partner_id,
      clientId,
      sid: deps.randomBytes(16).toString('base64url'),
      expiresAtMs: deps.realNow() + SESSION_LIFETIME_MS,
    };
    deleteCookie(c, SIGN_IN_COOKIE, { path: '/dashboard' });
    setCookie(c, SESSION_COOKIE, sealSession(session, key()), cookieOptions(c, SESSION_LIFETIME_MS / 1000));
    return c.redirect('/dashboard', 303);
  });

  // Everything below needs a session; forms also need the session's CSRF token.
  const signedIn: MiddlewareHandler<DashboardEnv> = async (c, next) => {
    const session = openSession(getCookie(c, SESSION_COOKIE), key(), deps.realNow());
    const credential = session && deps.store.credentials.get(session.clientId);
    const partner = session && deps.store.partners.get(session.partnerId);
    if (!session || !partner || credential?.status !== 'active' || credential.partner_id !== partner.id) {
      deleteCookie(c, SESSION_COOKIE, { path: '/dashboard' });
      if (c.req.header('accept')?.includes('text/event-stream')) return c.body(null, 401);
      return c.redirect('/dashboard/sign-in', 303);
    }
    if (c.req.method === 'POST') {
      const form = await c.req.parseBody();
      if (!validCsrf(session, key(), form._csrf)) {
        return c.text(
          'This form is stale or did not come from the dashboard (CSRF token missing or wrong). Reload the page and try again.',
          403,
        );
      }
    }
    const clock = deps.engine.clock(partner.id);
    c.set('api', sessionApi(deps, fetch, session));
    c.set('page', {
      partnerId: partner.id,
      partnerName: partner.name,
      clientId: session.clientId,
      csrf: csrfToken(session, key()),
      nowMs: clock.nowMs(),
      realNowMs: deps.realNow(),
      frozen: partner.clock.frozen_at_ms !== null,
      flash: c.req.method === 'GET' ? takeFlash(c) : undefined,
    });
    return next();
  };
  app.use('/dashboard/*', signedIn);

  app.post('/dashboard/sign-out', (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: '/dashboard' });
    return redirectWith(c, '/dashboard/sign-in');
  });

  const pageDeps = { deps, fetch, bus: new EventBus(deps.engine, deps.store) };
  overviewPage(app, pageDeps);
  customerPages(app, pageDeps);
  loanPages(app, pageDeps);
  eventPages(app, pageDeps);
  webhookPages(app, pageDeps);
  requestPages(app, pageDeps);
  faultPages(app, pageDeps);
  scenarioPages(app, pageDeps);
  snapshotPages(app, pageDeps);
  searchPage(app, pageDeps);
  return app;
}
