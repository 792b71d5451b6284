import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  biometricsItem,
  type CaptureOutcome,
  completeBiometricsSession,
  HOSTED_BIOMETRICS_PATH,
  sessionByToken,
  sessionState,
} from '../domain/customers/biometrics.js';
import { ApiError } from '../domain/errors.js';
import { formatCpf } from '../finance/cpf.js';
import { flushFor } from '../store/persistence.js';
import type { CustomerRecord } from '../store/records.js';
import type { AppDeps } from './deps.js';
import { badge, clockLine, dateTimeBr, type Tone } from './hosted-format.js';
import { escapeHtml, page } from './html.js';
import { partnerClockReading } from './signing-page.js';

const TITLE = 'Biometric capture';
/** The marker on every capture page: no real liveness check happens here. */
const MARKER = 'Sandbox — not a real biometric capture. No camera is used and nothing is verified.';
type Status = 200 | 400 | 404 | 409 | 410 | 413;

/**
 * The hosted capture page a `session_url` opens: plain HTML, no script, so it works in any browser
 * or webview. The unguessable token in the URL is the only credential; the Approve / Fail buttons
 * post back to the same URL and go through the same domain path as the control call.
 */
export function hostedBiometricsRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  const path = `${HOSTED_BIOMETRICS_PATH}/:token`;

  app.use(HOSTED_BIOMETRICS_PATH, noStore);
  app.use(`${HOSTED_BIOMETRICS_PATH}/*`, noStore);
  app.post(
    path,
    bodyLimit({ maxSize: 4096, onError: (c) => c.html(notice('The form sent is too large.'), 413) }),
  );

  app.get(path, (c) => {
    const found = load(deps, c.req.param('token'));
    if (!found) return c.html(notFoundPage(), 404);
    const { status, html } = render(found);
    return c.html(html, status);
  });

  app.post(path, async (c) => {
    const found = load(deps, c.req.param('token'));
    if (!found) return c.html(notFoundPage(), 404);
    // A body that claims to be a form but cannot be parsed is the sender's fault (400), not ours.
    const form = await c.req.parseBody().catch(() => undefined);
    const outcome = form?.outcome;
    if (outcome !== 'approved' && outcome !== 'rejected') {
      return c.html(notice('Choose Approve or Fail.'), 400);
    }
    const ctx = deps.engine.context(found.session.partner_id);
    try {
      completeBiometricsSession(ctx, found.session, outcome satisfies CaptureOutcome);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Expired, already used, or no longer needed: show the page as it stands now.
      const again = load(deps, c.req.param('token'));
      if (!again) return c.html(notFoundPage(), 404);
      const { status, html } = render(again);
      return c.html(html, status === 200 ? 409 : status);
    }
    await flushFor(deps.persistence, found.session.partner_id);
    // Post/redirect/get: reloading the result page never submits twice.
    return c.redirect(c.req.path, 303);
  });

  return app;
}

const noStore = async (c: { header(name: string, value: string): void }, next: () => Promise<void>) => {
  await next();
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
};

function load(deps: AppDeps, token: string) {
  const session = sessionByToken(deps.store, token);
  const customer = session ? deps.store.customers.get(session.customer_id) : undefined;
  if (!session || !customer) return undefined;
  const clock = partnerClockReading(deps, session.partner_id);
  return { session, customer, nowMs: clock.nowMs, clock, realNowMs: deps.realNow() };
}

function render(found: NonNullable<ReturnType<typeof load>>): { status: Status; html: string } {
  const { session, customer, nowMs } = found;
  const who = `<p>Customer: <strong>${escapeHtml(displayName(customer))}</strong></p>`;
  const clock = clockLine(found.clock, found.realNowMs);
  const result = (text: string, tone: Tone) => `<p>${badge(text, tone, 'result')}</p>`;
  const page = (title: string, body: string) => markedPage(title, `${body}${clock}`);
  const state = sessionState(session, nowMs);
  if (state === 'approved') {
    return {
      status: 200,
      html: page(
        TITLE,
        `<h1>${TITLE}</h1>${who}${result('Capture approved', 'ok')}<p>Thank you. You can close this window and return to the app.</p>`,
      ),
    };
  }
  if (state === 'rejected') {
    return {
      status: 200,
      html: page(
        TITLE,
        `<h1>${TITLE}</h1>${who}${result('Capture failed', 'fail')}<p>Return to the app to start a new capture.</p>`,
      ),
    };
  }
  if (state === 'expired') {
    return {
      status: 410,
      html: page(
        TITLE,
        `<h1>${TITLE}</h1>${who}${result('Session expired', 'expired')}<p>This capture session expired at ${dateTimeBr(Date.parse(session.expires_at))} (partner clock). Return to the app and start the capture again.</p>`,
      ),
    };
  }
  if (customer.status === 'active' || biometricsItem(customer)?.status === 'approved') {
    return {
      status: 200,
      html: page(
        TITLE,
        `<h1>${TITLE}</h1>${who}${result('Already approved', 'ok')}<p>The biometrics of this customer are already approved; nothing more is needed.</p>`,
      ),
    };
  }
  return {
    status: 200,
    html: page(
      TITLE,
      `<h1>${TITLE}</h1>${who}
<p>This page stands in for the biometrics provider's liveness capture. In the sandbox you choose how the capture ends.</p>
<p>The session expires at <strong>${dateTimeBr(Date.parse(session.expires_at))}</strong> on the partner clock.</p>
<form method="post">
<button type="submit" name="outcome" value="approved" class="primary">Approve</button>
<button type="submit" name="outcome" value="rejected">Fail</button>
</form>`,
    ),
  };
}

/** The name when known, else the CPF with its middle digits only (it is a personal identifier). */
function displayName(customer: CustomerRecord): string {
  if (customer.name) return customer.name;
  const masked = formatCpf(customer.cpf);
  return `***${masked.slice(3, 11)}-**`;
}

function notFoundPage(): string {
  return notice(
    'This capture link is not valid. Check that it was copied whole, or ask the app for a new one.',
  );
}

function notice(text: string): string {
  return markedPage(TITLE, `<h1>${TITLE}</h1><p>${escapeHtml(text)}</p>`);
}

function markedPage(title: string, body: string): string {
  return page(title, body, { marker: MARKER });
}
