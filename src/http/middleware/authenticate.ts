import type { MiddlewareHandler } from 'hono';
import { assertNotExpired } from '../../domain/access-tokens.js';
import { authenticateClient } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import { expiredProblem, goneProblem } from '../../domain/partner-lifetime.js';
import type { PartnerRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { requestHeader } from '../node-fast-path.js';
import { tokenCache } from '../token-cache.js';

/** Paths under /v3 that need no credentials at all. */
const PUBLIC_PATHS = new Set(['/v3/openapi.json']);
/** The one path authenticated with HTTP Basic client credentials instead of a bearer token. */
export const TOKEN_PATH = '/v3/auth/token';
/**
 * The Pact state change URL also takes HTTP Basic client credentials: its scenarios move the partner
 * clock, which expires any bearer token, and the verifier sends the same credential throughout.
 */
export const PROVIDER_STATES_PATH = '/v3/sandbox/provider-states';

/**
 * Establishes the partner: HTTP Basic on the token endpoint, a bearer token everywhere else.
 * Sets `partner`, `clientId` and the partner's `clock` for later middleware and handlers.
 */
export function authenticate(deps: AppDeps): MiddlewareHandler<AppEnv> {
  // Verified signatures are cached (bounded; see TokenCache) so a hot path does not recompute the
  // HMAC per request. Expiry is still checked against the partner clock every time (it can jump).
  const verified = tokenCache(deps.store);

  // Not async: it never waits, and an async wrapper costs a promise per request.
  return (c, next) => {
    const path = c.req.path;
    if (PUBLIC_PATHS.has(path)) return next();
    const header = requestHeader(c, 'authorization') ?? '';
    let partnerId: string;
    let clientId: string;
    if (path === TOKEN_PATH || (path === PROVIDER_STATES_PATH && /^Basic\s/i.test(header))) {
      const basic = parseBasic(header);
      // A gone partner's client id says why it stopped working (its credential went with it).
      const gone = deps.store.credentials.get(basic.clientId)
        ? undefined
        : goneProblem(deps.store, basic.clientId);
      if (gone) throw gone;
      const credential = authenticateClient(deps.store.credentials, basic.clientId, basic.secret);
      partnerId = credential.partner_id;
      clientId = credential.id;
    } else {
      const token = parseBearer(header);
      const subject = verified.verify(token);
      const owner = deps.store.partners.get(subject.partnerId);
      if (!owner) {
        throw (
          goneProblem(deps.store, subject.partnerId) ??
          new ApiError('invalid_token', 'The partner this token was issued for no longer exists.')
        );
      }
      assertAlive(owner, deps.realNow);
      assertNotExpired(subject, deps.engine.clock(subject.partnerId));
      partnerId = subject.partnerId;
      clientId = subject.clientId;
    }
    const partner = deps.store.partners.get(partnerId);
    if (!partner) throw new ApiError('invalid_client', 'The partner of this credential no longer exists.');
    assertAlive(partner, deps.realNow);
    c.set('partner', partner);
    c.set('clientId', clientId);
    c.set('clock', deps.engine.clock(partnerId));
    return next();
  };
}

/** Refused from the instant its lifetime ends (real time), before the sweep removes it. */
function assertAlive(partner: PartnerRecord, realNow: () => number): void {
  const end = partner.expires_at_ms;
  if (end !== undefined && end !== null && realNow() >= end) throw expiredProblem(partner.id, end);
}

function parseBearer(header: string): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new ApiError(
      header ? 'invalid_token' : 'authentication_required',
      header
        ? 'The Authorization header must be "Bearer <access_token>".'
        : 'Missing Authorization header. Send "Authorization: Bearer <access_token>"; get a token from POST /v3/auth/token.',
    );
  }
  return match[1] as string;
}

function parseBasic(header: string): { clientId: string; secret: string } {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1] as string, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) {
    throw new ApiError(
      header ? 'invalid_client' : 'authentication_required',
      'POST /v3/auth/token needs "Authorization: Basic base64(client_id:client_secret)".',
    );
  }
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
