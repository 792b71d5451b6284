import { ApiError, notFound } from '../domain/errors.js';
import type { CoreContext } from '../engine/context.js';
import { viewText } from '../lib/view-text.js';
import type { WebhookEndpointRecord, WebhookEndpointStatus } from '../store/records.js';
import { MAX_PREVIOUS_SECRETS } from '../store/webhook-records.js';
import { checkEndpointUrl } from './endpoint-url.js';
import { checkEventPatterns } from './event-patterns.js';
import { formatSecret, SECRET_BYTES } from './signing.js';

/** Default and longest grace period of the previous secret after a rotation, in seconds. */
export const DEFAULT_EXPIRE_CURRENT_IN = 3600;
export const MAX_EXPIRE_CURRENT_IN = 30 * 24 * 3600;

export type EndpointAction = 'disable' | 'enable';

/** The endpoint state machine: PATCH `status` and a 410 Gone answer both go through it. */
export const ENDPOINT_TRANSITIONS: Record<
  WebhookEndpointStatus,
  Partial<Record<EndpointAction, WebhookEndpointStatus>>
> = {
  active: { disable: 'disabled' },
  disabled: { enable: 'active' },
};

/** The status after `action`; asking for the status it already has is a no-op. */
export function nextEndpointStatus(
  current: WebhookEndpointStatus,
  action: EndpointAction,
): WebhookEndpointStatus {
  return ENDPOINT_TRANSITIONS[current][action] ?? current;
}

/** The public view (no secret): the spec's WebhookEndpoint fields. */
export function endpointView(row: WebhookEndpointRecord) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The endpoint's JSON (no secret), serialised once per row version. */
export const endpointJson = viewText(endpointView);

export interface EndpointSettings {
  httpHosts: readonly string[];
  /** Hosted safety: only https to public addresses (loopback and private hosts refused). */
  publicOnly?: boolean;
}

export interface NewEndpoint {
  url: string;
  events?: string[] | undefined;
  description?: string | undefined;
}

export function createEndpoint(
  ctx: CoreContext,
  input: NewEndpoint,
  settings: EndpointSettings,
): WebhookEndpointRecord {
  const url = checkEndpointUrl(input.url, settings.httpHosts, settings.publicOnly);
  const events = checkEventPatterns(input.events ?? []);
  const now = ctx.clock.iso();
  return ctx.store.webhookEndpoints.insert({
    id: ctx.ids('we_'),
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    url,
    events,
    description: input.description ?? '',
    status: 'active',
    secret: formatSecret(ctx.randomBytes(SECRET_BYTES)),
    previous_secrets: [],
    created_at: now,
    updated_at: now,
  });
}

/** The partner's endpoint, or 404 (another partner's id too). */
export function getEndpoint(ctx: CoreContext, id: string): WebhookEndpointRecord {
  const row = ctx.store.webhookEndpoints.get(id);
  if (!row || row.partner_id !== ctx.partnerId) throw notFound('webhook endpoint', id);
  return row;
}

export interface EndpointChanges {
  url?: string | undefined;
  events?: string[] | undefined;
  description?: string | undefined;
  status?: WebhookEndpointStatus | undefined;
}

/** PATCH: only the submitted fields change; `status` moves through the state machine. */
export function updateEndpoint(
  ctx: CoreContext,
  id: string,
  changes: EndpointChanges,
  settings: EndpointSettings,
): WebhookEndpointRecord {
  let row = getEndpoint(ctx, id);
  const url =
    changes.url === undefined
      ? row.url
      : checkEndpointUrl(changes.url, settings.httpHosts, settings.publicOnly);
  const events = changes.events === undefined ? row.events : checkEventPatterns(changes.events);
  row = ctx.store.webhookEndpoints.replace({
    ...row,
    url,
    events,
    description: changes.description ?? row.description,
    updated_at: ctx.clock.iso(),
  });
  if (changes.status !== undefined) {
    row = changeEndpointStatus(ctx, row.id, changes.status === 'active' ? 'enable' : 'disable');
  }
  return row;
}

/** Moves an endpoint through ENDPOINT_TRANSITIONS (PATCH `status`, or a 410 Gone answer). */
export function changeEndpointStatus(
  ctx: CoreContext,
  id: string,
  action: EndpointAction,
): WebhookEndpointRecord {
  const row = getEndpoint(ctx, id);
  const status = nextEndpointStatus(row.status, action);
  if (status === row.status) return row;
  return ctx.store.webhookEndpoints.replace({ ...row, status, updated_at: ctx.clock.iso() });
}

/**
 * Replaces the secret. The current one keeps signing, beside the new one, for `expireInSeconds`
 * of the partner clock; 0 drops it at once. Secrets replaced by earlier rotations keep the expiry
 * their rotation announced (a second rotation during a grace period ends no earlier grace). At
 * most MAX_PREVIOUS_SECRETS sign beside the current one: a rotation that would keep one more is
 * refused (`too_many_previous_secrets`) rather than cutting a grace period short.
 */
export function rotateSecret(
  ctx: CoreContext,
  id: string,
  expireInSeconds: number,
): { id: string; secret: string; previous_secret_expires_at: string } {
  if (!Number.isInteger(expireInSeconds) || expireInSeconds < 0 || expireInSeconds > MAX_EXPIRE_CURRENT_IN) {
    throw new ApiError(
      'validation_failed',
      `expire_current_in must be an integer from 0 to ${MAX_EXPIRE_CURRENT_IN} seconds.`,
      {
        param: 'expire_current_in',
        errors: [
          { param: 'expire_current_in', detail: `must be an integer from 0 to ${MAX_EXPIRE_CURRENT_IN}` },
        ],
      },
    );
  }
  const row = getEndpoint(ctx, id);
  const now = ctx.clock.nowMs();
  const expiresAt = new Date(now + expireInSeconds * 1000).toISOString();
  const stillValid = row.previous_secrets.filter((p) => Date.parse(p.expires_at) > now);
  if (expireInSeconds > 0 && stillValid.length >= MAX_PREVIOUS_SECRETS) {
    const soonest = new Date(Math.min(...stillValid.map((p) => Date.parse(p.expires_at)))).toISOString();
    throw new ApiError(
      'too_many_previous_secrets',
      `Webhook endpoint ${row.id} already has ${stillValid.length} previous secrets signing beside the current one, the most it keeps; each keeps the expiry its rotation announced. Rotate again after ${soonest}, when the soonest expires, or now with expire_current_in: 0 (the current secret then stops signing at once).`,
      { param: 'expire_current_in' },
    );
  }
  const secret = formatSecret(ctx.randomBytes(SECRET_BYTES));
  const replaced = expireInSeconds > 0 ? [{ secret: row.secret, expires_at: expiresAt }] : [];
  ctx.store.webhookEndpoints.replace({
    ...row,
    secret,
    previous_secrets: [...replaced, ...stillValid],
    updated_at: ctx.clock.iso(),
  });
  return { id: row.id, secret, previous_secret_expires_at: expiresAt };
}

/**
 * The secrets that sign an attempt due at `atMs`: the current one first, then each previous one
 * whose announced expiry is still ahead, newest first.
 */
export function signingSecrets(row: WebhookEndpointRecord, atMs: number): string[] {
  const secrets = [row.secret];
  for (const previous of row.previous_secrets) {
    if (Date.parse(previous.expires_at) > atMs) secrets.push(previous.secret);
  }
  return secrets;
}
