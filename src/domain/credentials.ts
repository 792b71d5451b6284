import { createHash, timingSafeEqual } from 'node:crypto';
import type { CoreContext } from '../engine/context.js';
import type { CredentialRecord } from '../store/records.js';
import { ApiError, notFound } from './errors.js';

/** Sandbox client secrets carry this prefix, as the real service's sandbox secrets do. */
export const SECRET_PREFIX = 'svc_cs_test_';

/** The public view of a credential: never the secret, never its hash. */
export interface CredentialView {
  client_id: string;
  name: string;
  status: CredentialRecord['status'];
  created_at: string;
  revoked_at: string | null;
}

export function credentialView(row: CredentialRecord): CredentialView {
  return {
    client_id: row.id,
    name: row.name,
    status: row.status,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * A client id no credential has. Credentials outlive a snapshot restore, which rewinds the
 * partner's seeded stream, so the id drawn may be one issued after the save. Then it is derived
 * again from the drawn one without drawing more, so every later value of the stream stays what it
 * was (under `--seed` only this client id differs from the first run).
 */
function unusedClientId(ctx: CoreContext): string {
  const drawn = ctx.ids('cid_');
  let id = drawn;
  for (let n = 1; ctx.store.credentials.get(id); n++) {
    id = `cid_${createHash('sha256').update(`${drawn}/${n}`).digest('hex').slice(0, 32)}`;
  }
  return id;
}

/** Creates a credential. `fixed` pins the pair (the default partner's well-known credential). */
export function issueCredential(
  ctx: CoreContext,
  name: string,
  fixed?: { clientId: string; clientSecret: string },
): { row: CredentialRecord; secret: string } {
  const secret = fixed?.clientSecret ?? `${SECRET_PREFIX}${ctx.randomBytes(24).toString('base64url')}`;
  const row = ctx.store.credentials.insert({
    id: fixed?.clientId ?? unusedClientId(ctx),
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    name,
    secret_hash: hashSecret(secret),
    status: 'active',
    created_at: ctx.clock.iso(),
    revoked_at: null,
  });
  return { row, secret };
}

/**
 * Credential management (create, revoke) needs a token whose own credential is still active:
 * otherwise whoever holds a leaked credential's token could mint a fresh credential before the
 * token expires, and revoking the leaked one would stop nothing. Other operations keep the
 * spec's rule (an earlier token works until it expires).
 */
export function assertManagingCredentialActive(
  credentials: { get(id: string): CredentialRecord | undefined },
  clientId: string,
): void {
  const row = credentials.get(clientId);
  if (row && row.status === 'active') return;
  throw new ApiError(
    'credential_revoked',
    `This token was issued to credential ${clientId}, revoked${row?.revoked_at ? ` at ${row.revoked_at}` : ''}; it still reads data until it expires but cannot manage credentials. Use a token of an active credential.`,
  );
}

/** Revokes a credential now; revoking a revoked one answers it unchanged (DELETE is idempotent). */
export function revokeCredential(ctx: CoreContext, clientId: string): CredentialRecord {
  const row = ctx.store.partnerCredential(ctx.partnerId, clientId);
  if (!row) throw notFound('credential', clientId);
  if (row.status === 'revoked') return row;
  return ctx.store.credentials.replace({ ...row, status: 'revoked', revoked_at: ctx.clock.iso() });
}

/** The active credential matching a client id and secret, or a 401 `invalid_client`. */
export function authenticateClient(
  credentials: { get(id: string): CredentialRecord | undefined },
  clientId: string,
  secret: string,
): CredentialRecord {
  const row = credentials.get(clientId);
  const given = Buffer.from(hashSecret(secret));
  if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), given)) {
    throw new ApiError('invalid_client', 'Unknown client_id or wrong client_secret.');
  }
  if (row.status === 'revoked') {
    throw new ApiError(
      'invalid_client',
      `Credential ${clientId} was revoked at ${row.revoked_at}; it cannot obtain new tokens. Create a new credential.`,
    );
  }
  return row;
}
