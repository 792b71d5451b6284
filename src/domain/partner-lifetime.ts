import type { PartnerGoneReason, PartnerRecord, PartnerTombstoneRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { DEFAULT_PARTNER_ID } from './default-partner.js';
import { ApiError } from './errors.js';

/** The longest lifetime one request may give a partner: a year (`expires_in`). */
export const MAX_LIFETIME_SECONDS = 366 * 86_400;

/**
 * How long what stays of a gone partner is kept (its tombstones: why its credentials and tokens
 * stopped working), and for how many gone partners at most, oldest dropped first. After that its
 * credentials answer `invalid_client` and its tokens `invalid_token`, like any unknown ones.
 */
export const TOMBSTONE_RETENTION_MS = 7 * 86_400_000;
export const TOMBSTONES_KEPT = 10_000;

/** The end of a lifetime that starts now, real time in ms since the epoch. */
export function lifetimeEnd(realNowMs: number, expiresInSeconds: number): number {
  return Math.floor(realNowMs + expiresInSeconds * 1000);
}

/** Whether the partner's lifetime has run out (real time, not its clock). */
export function isExpired(partner: PartnerRecord, realNowMs: number): boolean {
  const end = partner.expires_at_ms;
  return end !== undefined && end !== null && realNowMs >= end;
}

/** `expires_at` as the API shows it: an ISO date-time, or null for a partner without a lifetime. */
export function expiresAt(partner: PartnerRecord): string | null {
  const end = partner.expires_at_ms;
  return end === undefined || end === null ? null : new Date(end).toISOString();
}

/** The 401 an expired partner's credentials and tokens get, even before the sweep removed it. */
export function expiredProblem(partnerId: string, endMs: number): ApiError {
  return new ApiError(
    'partner_expired',
    `Partner ${partnerId} expired at ${new Date(endMs).toISOString()} and was removed with all its data. Create a new partner (POST /v3/sandbox/partners), with a longer expires_in if you need one.`,
  );
}

/**
 * The 401 for a partner id or client id of a gone partner, or undefined when the sandbox keeps no
 * tombstone for it (never existed, or gone longer ago than the retention).
 */
export function goneProblem(store: Store, id: string): ApiError | undefined {
  const tombstone = store.tombstones.get(id);
  if (!tombstone) return undefined;
  const at = new Date(tombstone.gone_at_ms).toISOString();
  if (tombstone.reason === 'expired') return expiredProblem(tombstone.partner_id, tombstone.gone_at_ms);
  return new ApiError(
    'partner_deleted',
    `Partner ${tombstone.partner_id} was deleted at ${at} with all its data. Create a new partner (POST /v3/sandbox/partners).`,
  );
}

/**
 * The partner `targetId` if `callerId` may change or remove it: the partner itself, or the partner
 * that created it. Anyone else gets 404 (isolation: another's partner is not there for them); the
 * default partner is refused (it lives as long as the sandbox).
 */
export function managedPartner(
  store: Store,
  callerId: string,
  targetId: string,
  found: PartnerRecord | undefined = store.partners.get(targetId),
): PartnerRecord {
  if (!found || (found.id !== callerId && found.created_by !== callerId)) {
    throw new ApiError(
      'resource_not_found',
      `No partner with id "${targetId}" exists among this partner and the partners it created.`,
    );
  }
  if (found.id === DEFAULT_PARTNER_ID) {
    throw new ApiError(
      'partner_protected',
      `${DEFAULT_PARTNER_ID} is the sandbox's default partner: it cannot be deleted or given a lifetime. Create partners of your own (POST /v3/sandbox/partners) for that.`,
    );
  }
  return found;
}

/** Gives the partner a new lifetime of `expiresInSeconds` from now (extends or shortens it). */
export function setLifetime(
  store: Store,
  partner: PartnerRecord,
  expiresInSeconds: number,
  realNowMs: number,
): PartnerRecord {
  return store.partners.replace({ ...partner, expires_at_ms: lifetimeEnd(realNowMs, expiresInSeconds) });
}

/**
 * Removes a partner for good, in one change: every row it has (customers to deliveries, jobs,
 * fault rules, request log, idempotency keys, snapshots, credentials) leaves the store, and its
 * tombstones (its id and each client id it had) take their place. Live views of it end. Returns
 * how many client ids it had. Memory-only state of the partner (timers, caches, deliveries in
 * flight) is dropped by those who keep it, told through the store's eviction listeners.
 */
export function removePartner(
  store: Store,
  partnerId: string,
  reason: PartnerGoneReason,
  realNowMs: number,
): number {
  const clientIds = store.credentialsByPartner.rows(partnerId).map((row) => row.id);
  store.purgePartner(partnerId);
  for (const id of [partnerId, ...clientIds]) {
    const row: PartnerTombstoneRecord = {
      id,
      seq: store.nextSeq(),
      partner_id: partnerId,
      reason,
      gone_at_ms: realNowMs,
    };
    if (store.tombstones.get(id)) store.tombstones.replace(row);
    else store.tombstones.insert(row);
  }
  return clientIds.length;
}

/** The partners whose lifetime has run out, at most `limit` of them (the sweep's batch). */
export function expiredPartners(store: Store, realNowMs: number, limit: number): string[] {
  const out: string[] = [];
  for (const partner of store.partners.values()) {
    if (isExpired(partner, realNowMs)) out.push(partner.id);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Drops tombstones older than the retention, and the oldest beyond TOMBSTONES_KEPT gone partners
 * (rows of a partner go together). Returns how many rows went. A sweep's work, cheap when nothing
 * is due: one pass over the tombstones, which are bounded.
 */
export function pruneTombstones(store: Store, realNowMs: number): number {
  const byPartner = new Map<string, number>();
  for (const row of store.tombstones.values()) byPartner.set(row.partner_id, row.gone_at_ms);
  const doomed = new Set<string>();
  for (const [partnerId, goneAt] of byPartner) {
    if (realNowMs - goneAt > TOMBSTONE_RETENTION_MS) doomed.add(partnerId);
  }
  const left = [...byPartner].filter(([id]) => !doomed.has(id));
  if (left.length > TOMBSTONES_KEPT) {
    left.sort((a, b) => a[1] - b[1]);
    for (const [id] of left.slice(0, left.length - TOMBSTONES_KEPT)) doomed.add(id);
  }
  if (doomed.size === 0) return 0;
  let removed = 0;
  for (const id of doomed) {
    for (const row of store.tombstones.partnerRows(id)) {
      store.tombstones.delete(row.id);
      removed++;
    }
  }
  return removed;
}
