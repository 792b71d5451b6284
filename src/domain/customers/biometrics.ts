import { createHash } from 'node:crypto';
import type { DomainContext } from '../../engine/context.js';
import type { BiometricsSessionRecord, CustomerRecord, KycItemRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { ApiError } from '../errors.js';
import { getCustomer, moveKycItem } from './kyc-progress.js';
import { BIOMETRICS_TYPE } from './requirements.js';

/** Where the hosted capture page lives (outside /v3: the person opening it has no API token). */
export const HOSTED_BIOMETRICS_PATH = '/hosted/biometrics';

export type CaptureOutcome = 'approved' | 'rejected';
/** What the hosted page shows: `expired` is an open session past `expires_at`. */
export type SessionState = 'open' | 'expired' | 'approved' | 'rejected';

/** Feedback on the biometrics item when a capture fails. */
export const CAPTURE_FAILED_MESSAGE =
  'The biometric capture failed (no live face was recognised). Start a new session and try again in good light.';

/**
 * Starts a hosted capture session. The URL carries a fresh unguessable token (stored only as its
 * SHA-256); the session lasts `biometricsSessionMs` of the partner clock.
 */
export function startBiometricsSession(
  ctx: DomainContext,
  customerId: string,
  publicUrl: string,
): { session_url: string; expires_at: string } {
  const customer = getCustomer(ctx, customerId);
  assertCaptureNeeded(customer);
  const id = ctx.ids('bio_');
  // Random part for secrecy; the id's hex keeps tokens unique even with a deterministic source.
  const token = `${ctx.randomBytes(24).toString('base64url')}${id.slice('bio_'.length)}`;
  const expiresAt = new Date(ctx.clock.nowMs() + ctx.timings.biometricsSessionMs).toISOString();
  ctx.store.biometricsSessions.insert({
    id,
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    customer_id: customer.id,
    token_hash: hashToken(token),
    status: 'open',
    expires_at: expiresAt,
    completed_at: null,
    created_at: ctx.clock.iso(),
  });
  return {
    session_url: `${publicUrl.replace(/\/$/, '')}${HOSTED_BIOMETRICS_PATH}/${token}`,
    expires_at: expiresAt,
  };
}

/** The session a hosted-page token opens, if any. */
export function sessionByToken(store: Store, token: string): BiometricsSessionRecord | undefined {
  return store.biometricsSessionIdx.byTokenHash.get(hashToken(token));
}

export function sessionState(session: BiometricsSessionRecord, nowMs: number): SessionState {
  if (session.status !== 'open') return session.status;
  return Date.parse(session.expires_at) <= nowMs ? 'expired' : 'open';
}

/**
 * Ends a session with the capture's outcome (the hosted page's buttons and the control call):
 * approved moves the biometrics item to approved, rejected to pending_resubmission.
 */
export function completeBiometricsSession(
  ctx: DomainContext,
  session: BiometricsSessionRecord,
  outcome: CaptureOutcome,
): CustomerRecord {
  const state = sessionState(session, ctx.clock.nowMs());
  if (state === 'expired') {
    throw new ApiError(
      'no_biometrics_session',
      `The capture session expired at ${session.expires_at}. Start a new one with POST /v3/customers/${session.customer_id}/biometrics.`,
    );
  }
  if (state !== 'open') {
    throw new ApiError(
      'no_biometrics_session',
      `The capture session already ended (${state}). Start a new one with POST /v3/customers/${session.customer_id}/biometrics.`,
    );
  }
  const customer = getCustomer(ctx, session.customer_id);
  assertCaptureNeeded(customer);
  ctx.store.biometricsSessions.replace({ ...session, status: outcome, completed_at: ctx.clock.iso() });
  return outcome === 'approved'
    ? moveKycItem(ctx, customer, BIOMETRICS_TYPE, 'capture_passed')
    : moveKycItem(ctx, customer, BIOMETRICS_TYPE, 'capture_failed', { message: CAPTURE_FAILED_MESSAGE });
}

/** Control: completes the customer's most recent open session. */
export function completeLatestSession(
  ctx: DomainContext,
  customerId: string,
  outcome: CaptureOutcome,
): CustomerRecord {
  const customer = getCustomer(ctx, customerId);
  assertCaptureNeeded(customer);
  const now = ctx.clock.nowMs();
  const open = ctx.store.biometricsSessionIdx.byCustomer
    .get(customer.id)
    .filter((s) => sessionState(s, now) === 'open')
    .sort((a, b) => b.seq - a.seq)[0];
  if (!open) {
    throw new ApiError(
      'no_biometrics_session',
      `Customer ${customer.id} has no open biometrics session. Start one with POST /v3/customers/${customer.id}/biometrics, then complete it.`,
    );
  }
  return completeBiometricsSession(ctx, open, outcome);
}

/** The biometrics item of a customer (every customer has one). */
export function biometricsItem(customer: CustomerRecord): KycItemRecord | undefined {
  return customer.kyc.find((i) => i.type === BIOMETRICS_TYPE);
}

function assertCaptureNeeded(customer: CustomerRecord): void {
  if (customer.status === 'active') {
    throw new ApiError(
      'kyc_completed',
      `Customer ${customer.id} is active: KYC is complete and needs no biometrics.`,
    );
  }
  if (biometricsItem(customer)?.status === 'approved') {
    throw new ApiError(
      'biometrics_already_approved',
      `The biometrics of customer ${customer.id} are already approved; no new capture is needed.`,
    );
  }
}

/** The stored form of a session token (its hash; the token itself is only in the URL). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
