import { assertNotExpired } from '../../domain/access-tokens.js';
import { authenticateClient } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import { expiredProblem, goneProblem } from '../../domain/partner-lifetime.js';
import type { PartnerRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import { sharedRateLimiter } from '../rate-limiter.js';
import { tokenCache } from '../token-cache.js';
import type { OperationContext } from './operation-context.js';

/** Paths under /v3 that need no credentials at all. */
export const PUBLIC_PATHS = new Set(['/v3/openapi.json']);
/** The one path authenticated with HTTP Basic client credentials instead of a bearer token. */
export const TOKEN_PATH = '/v3/auth/token';
/**
 * The Pact state change URL also takes HTTP Basic client credentials: its scenarios move the partner
 * clock, which expires any bearer token, and the verifier sends the same credential throughout.
 */
export const PROVIDER_STATES_PATH = '/v3/sandbox/provider-states';

/**
 * Who may call, and how often: establishes the partner (HTTP Basic on the token endpoint, a
 * bearer token everywhere else) and takes one token of its rate-limit bucket. Sets `partner`,
 * `clientId` and `clock` on the context and adds the `RateLimit-*` headers to `head`; throws the
 * 401 or 429 problem. Synchronous: it never waits.
 *
 * Verified signatures are cached (bounded; see TokenCache) so a repeated token costs one string
 * compare, not an HMAC; expiry is still checked against the partner clock every time (it can jump).
 */
export function admission(deps: AppDeps) {
  const verified = tokenCache(deps.store);
  const rate = deps.config.rateLimit;
  const limiter = rate > 0 ? sharedRateLimiter(deps, rate, deps.realNow) : undefined;
  // One bucket per partner in memory, not per partner ever seen.
  if (limiter) deps.store.onEvicted((partnerId) => limiter.forget(partnerId));
  const rateText = String(rate);

  const authenticate = (c: OperationContext, path: string): PartnerRecord => {
    const header = c.facts.header('authorization') ?? '';
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
      // A token answered before is known well-formed: one compare instead of the pattern.
      const known = header.startsWith('Bearer ') ? verified.cached(header.slice(7)) : undefined;
      const subject = known ?? verified.verify(parseBearer(header));
      const owner = deps.store.partners.get(subject.partnerId);
      if (!owner) {
        // A gone partner's token says why it stopped working (expired or deleted).
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
    return partner;
  };

  /** The partner of the request, or undefined on a public path. */
  return (c: OperationContext, path: string, head: string[]): PartnerRecord | undefined => {
    if (PUBLIC_PATHS.has(path)) return undefined;
    const partner = authenticate(c, path);
    if (!limiter) return partner;
    if (limiter.allow(partner.id)) {
      head.push(
        'RateLimit-Limit',
        rateText,
        'RateLimit-Remaining',
        String(limiter.lastRemaining),
        'RateLimit-Reset',
        String(limiter.lastResetSeconds),
      );
      return partner;
    }
    // Refused: `take` refills from the same instant and refuses the same way, with the decision.
    const decision = limiter.take(partner.id);
    throw new ApiError(
      'rate_limited',
      `More than ${rate} requests per second for this partner. Retry after ${decision.retryAfterSeconds} s, or start the sandbox with a higher --rate-limit (0 turns it off).`,
      {
        headers: {
          'RateLimit-Limit': String(decision.limit),
          'RateLimit-Remaining': String(decision.remaining),
          'RateLimit-Reset': String(decision.resetSeconds),
          'Retry-After': String(decision.retryAfterSeconds),
        },
      },
    );
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
