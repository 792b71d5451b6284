/** Error codes of webhook endpoints. */
import type { ErrorCatalogEntry } from './error-catalog-entry.js';

export const WEBHOOK_ERRORS = {
  webhook_url_not_allowed: {
    status: 422,
    title: 'Webhook URL not allowed',
    help: 'Webhook URLs must be https. Plain http is accepted only for loopback hosts (localhost, 127.0.0.0/8, [::1]) and for hosts the sandbox was started with in `--webhook-http-hosts`.',
  },
  unknown_event_pattern: {
    status: 422,
    title: 'Unknown event pattern',
    help: 'Each entry of `events` must be `*`, `<resource>.*` (customer.*, credit_offer.*, loan.*) or an exact event name. An empty list subscribes to every event.',
  },
  webhook_endpoint_disabled: {
    status: 422,
    title: 'Webhook endpoint disabled',
    help: 'Disabled endpoints receive nothing. Re-enable it with `PATCH /v3/webhooks/endpoints/{id}` and `{"status": "active"}` first.',
  },
  too_many_previous_secrets: {
    status: 422,
    title: 'Too many previous secrets still signing',
    help: 'An endpoint keeps at most 10 previous secrets signing beside the current one, each until the expiry its rotation announced. Wait until the soonest of them expires (the detail says when), or rotate with `expire_current_in: 0`, which keeps no grace period for the current secret.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
