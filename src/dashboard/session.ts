import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The dashboard's session: a value sealed with an HMAC, kept in an HttpOnly, SameSite=Strict cookie.
 * It names the partner and the credential that signed in, never the secret. It is not an API access
 * token (those live one hour of the partner clock, and a 35-day jump would end the session): the
 * dashboard mints a short-lived access token for the session's credential whenever it calls the API.
 */
export interface DashboardSession {
  partnerId: string;
  clientId: string;
  /** Random id of this sign-in; the CSRF token is derived from it. */
  sid: string;
  /** Real wall-clock expiry, milliseconds since the epoch. */
  expiresAtMs: number;
}

/** How long a sign-in lasts, in real time. */
export const SESSION_LIFETIME_MS = 8 * 3_600_000;
export const SESSION_COOKIE = 'credit_sandbox_session';
/** Double-submit token of the sign-in form (there is no session yet to derive one from). */
export const SIGN_IN_COOKIE = 'credit_sandbox_sign_in';
export const FLASH_COOKIE = 'credit_sandbox_flash';

/** The dashboard's own key, derived from the store's token key so API tokens and sessions never mix. */
export function sessionKey(signingKey: string): Buffer {
  return createHmac('sha256', Buffer.from(signingKey, 'base64url')).update('dashboard-session-v1').digest();
}

function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function sealSession(session: DashboardSession, key: Buffer): string {
  const payload = Buffer.from(
    JSON.stringify({ p: session.partnerId, c: session.clientId, s: session.sid, e: session.expiresAtMs }),
  ).toString('base64url');
  return `${payload}.${mac(key, `session|${payload}`)}`;
}

/** The session a cookie value carries, or undefined when it is forged, malformed or expired. */
export function openSession(
  value: string | undefined,
  key: Buffer,
  realNowMs: number,
): DashboardSession | undefined {
  if (!value) return undefined;
  const dot = value.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = value.slice(0, dot);
  if (!sameText(value.slice(dot + 1), mac(key, `session|${payload}`))) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (claims === null || typeof claims !== 'object') return undefined;
  const { p, c, s, e } = claims as Record<string, unknown>;
  if (typeof p !== 'string' || typeof c !== 'string' || typeof s !== 'string' || typeof e !== 'number') {
    return undefined;
  }
  if (realNowMs >= e) return undefined;
  return { partnerId: p, clientId: c, sid: s, expiresAtMs: e };
}

/** The CSRF token every form of this session carries. */
export function csrfToken(session: DashboardSession, key: Buffer): string {
  return mac(key, `csrf|${session.sid}`);
}

export function validCsrf(session: DashboardSession, key: Buffer, given: unknown): boolean {
  return typeof given === 'string' && sameText(given, csrfToken(session, key));
}

/** The sign-in form's token: a random nonce in a cookie, and its MAC in the form. */
export function signInToken(nonce: string, key: Buffer): string {
  return mac(key, `sign-in|${nonce}`);
}

export function validSignInToken(nonce: string | undefined, key: Buffer, given: unknown): boolean {
  return !!nonce && typeof given === 'string' && sameText(given, signInToken(nonce, key));
}
