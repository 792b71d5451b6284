import { hashSecret, issueCredential, SECRET_PREFIX } from './credentials.js';
import { createPartner, type PartnerSources, partnerClock } from './partners.js';

export const DEFAULT_PARTNER_ID = 'ptn_default';
/** Well-known credential of the default partner when the environment names none (printed at start-up). */
export const DEFAULT_CLIENT_ID = 'cid_sandbox_default';
export const DEFAULT_CLIENT_SECRET = 'svc_cs_test_sandbox_default_secret';

export interface DefaultCredential {
  clientId: string;
  clientSecret: string;
}

/** Reads CREDIT_SANDBOX_CLIENT_ID / CREDIT_SANDBOX_CLIENT_SECRET, falling back to the documented defaults. */
export function defaultCredentialFromEnv(env: NodeJS.ProcessEnv): DefaultCredential {
  const clientId = env.CREDIT_SANDBOX_CLIENT_ID || DEFAULT_CLIENT_ID;
  const clientSecret = env.CREDIT_SANDBOX_CLIENT_SECRET || DEFAULT_CLIENT_SECRET;
  if (!clientSecret.startsWith(SECRET_PREFIX)) {
    throw new Error(
      `CREDIT_SANDBOX_CLIENT_SECRET must start with "${SECRET_PREFIX}" (sandbox secrets do, as in the real service's sandbox).`,
    );
  }
  return { clientId, clientSecret };
}

/** Makes sure the default partner and its configured credential exist (first start, or a restored file). */
export function ensureDefaultPartner(
  sources: PartnerSources,
  credential: DefaultCredential,
  clockMode: 'running' | 'frozen',
): void {
  const store = sources.store;
  if (!store.partners.get(DEFAULT_PARTNER_ID)) {
    createPartner(sources, { id: DEFAULT_PARTNER_ID, name: 'default', clockMode, credential });
    return;
  }
  // A restored file may have been made with another credential: the one configured now (and
  // printed at start-up) must work, so add it, or take its secret when the id is already there.
  const existing = store.credentials.get(credential.clientId);
  if (!existing) {
    issueCredential(
      { ...sources, partnerId: DEFAULT_PARTNER_ID, clock: partnerClock(sources, DEFAULT_PARTNER_ID) },
      'default',
      credential,
    );
  } else if (existing.partner_id === DEFAULT_PARTNER_ID) {
    const secretHash = hashSecret(credential.clientSecret);
    if (existing.secret_hash !== secretHash)
      store.credentials.replace({ ...existing, secret_hash: secretHash });
  }
}
