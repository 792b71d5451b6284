import { SESSION_COOKIE } from '../dashboard/session.js';

/** The sign-in form is small; a larger body is refused by the dashboard itself (413). */
const SIGN_IN_BODY_LIMIT = 64 * 1024;

/**
 * The partner a dashboard request concerns, read without verifying anything (the owner verifies
 * the session's MAC): the `p` claim of the session cookie. Undefined when there is no readable
 * session, so the request is handled where it lands (the sign-in page, assets, a stale cookie).
 */
export function sessionPartner(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const payload =
      part
        .slice(eq + 1)
        .trim()
        .split('.')[0] ?? '';
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown };
      return typeof claims.p === 'string' ? claims.p : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The client id a dashboard sign-in form names (its partner owns the sign-in: the session's first
 * page must be served where the credential lives). Read from a copy of the body, so the request
 * itself stays unread for forwarding or for the dashboard's own form parsing.
 */
export async function signInClientId(request: Request): Promise<string | undefined> {
  const length = Number(request.headers.get('content-length') ?? Number.NaN);
  const type = request.headers.get('content-type') ?? '';
  if (!(length <= SIGN_IN_BODY_LIMIT) || !type.startsWith('application/x-www-form-urlencoded'))
    return undefined;
  const clientId = new URLSearchParams(await request.clone().text()).get('client_id')?.trim();
  return clientId || undefined;
}
