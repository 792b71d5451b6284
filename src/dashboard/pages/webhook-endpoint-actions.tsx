/** @jsxImportSource hono/jsx */
import type { Context, Hono } from 'hono';
import { Csrf } from '../components.js';
import { afterAction, type DashboardDeps, type DashboardEnv, field, render } from '../context.js';
import { Layout } from '../layout.js';

/** The add-endpoint form on the Webhooks page: URL, event patterns (comma-separated), description. */
export const AddEndpointForm = ({ csrf }: { csrf: string }) => (
  <form class="inline" method="post" action="/dashboard/webhooks/endpoints" id="add-endpoint">
    <Csrf token={csrf} />
    <label>
      URL
      <input name="url" type="url" required placeholder="https://example.com/webhooks" size={32} />
    </label>
    <label>
      Events
      <input name="events" placeholder="* or customer.*, loan.active" size={24} />
    </label>
    <label>
      Description
      <input name="description" placeholder="optional" size={16} />
    </label>
    <button type="submit" class="primary">
      Add endpoint
    </button>
  </form>
);

/** "Rotate secret" on one endpoint's row. */
export const RotateSecret = ({ endpointId, csrf }: { endpointId: string; csrf: string }) => (
  <form class="inline" method="post" action={`/dashboard/webhooks/endpoints/${endpointId}/rotate`}>
    <Csrf token={csrf} />
    <button type="submit">Rotate secret</button>
  </form>
);

/** "customer.*, loan.active" → ["customer.*", "loan.active"]; blank or "*" → every event. */
export function eventPatterns(text: string): string[] {
  const patterns = text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  return patterns.length === 1 && patterns[0] === '*' ? [] : patterns;
}

/**
 * The signing secret is shown once, on the page that answers the POST (never in a cookie or a
 * redirect), as the API shows it once in its answer.
 */
function secretPage(
  c: Context<DashboardEnv>,
  heading: string,
  endpointId: string,
  secret: string,
  note: string,
) {
  return render(
    c,
    <Layout title="Webhooks" section="webhooks" ctx={c.get('page')}>
      <div class="card" role="status" id="endpoint-secret">
        <h2>{heading}</h2>
        <p>
          Endpoint <code>{endpointId}</code>. Signing secret (shown only now: copy it into your app):
        </p>
        <pre data-secret>{secret}</pre>
        <p class="muted">{note}</p>
        <p>
          <a href="/dashboard/webhooks">Back to Webhooks</a>
        </p>
      </div>
    </Layout>,
  );
}

export function webhookEndpointActions(app: Hono<DashboardEnv>, _deps: DashboardDeps) {
  app.post('/dashboard/webhooks/endpoints', async (c) => {
    const form = await c.req.parseBody();
    const description = field(form, 'description');
    const result = await c.get('api').post<{ id: string; secret: string }>('/v3/webhooks/endpoints', {
      url: field(form, 'url'),
      events: eventPatterns(field(form, 'events')),
      ...(description ? { description } : {}),
    });
    if (!result.ok) return afterAction(c, result, '/dashboard/webhooks', '');
    return secretPage(
      c,
      'Endpoint added',
      result.body.id,
      result.body.secret,
      'Every matching event is now delivered to it, signed with this secret (Standard Webhooks).',
    );
  });

  app.post('/dashboard/webhooks/endpoints/:id/rotate', async (c) => {
    const id = c.req.param('id');
    const result = await c
      .get('api')
      .post<{ secret: string; previous_secret_expires_at: string }>(
        `/v3/webhooks/endpoints/${encodeURIComponent(id)}/secret/rotate`,
      );
    if (!result.ok) return afterAction(c, result, '/dashboard/webhooks', '');
    return secretPage(
      c,
      'Secret rotated',
      id,
      result.body.secret,
      `Until ${result.body.previous_secret_expires_at} (partner clock) deliveries carry signatures for both the old and the new secret; after that only the new one.`,
    );
  });
}
