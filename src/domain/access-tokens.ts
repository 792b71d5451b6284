import type { Clock } from '../engine/clock.js';
import { type JwtClaims, signJwt, verifyJwt } from '../lib/jwt.js';
import type { CredentialRecord } from '../store/records.js';
import { ApiError } from './errors.js';

/** Access tokens carry this prefix before the JWT, as the real service's do. */
export const TOKEN_PREFIX = 'svc_at_';
export const TOKEN_LIFETIME_SECONDS = 3600;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** Who a verified token speaks for. */
export interface TokenSubject {
  partnerId: string;
  clientId: string;
  /** Expiry, seconds since the epoch on the partner clock. */
  exp: number;
}

/** Issues an OAuth 2.0 client-credentials response; `iat`/`exp` come from the partner clock. */
export function issueAccessToken(
  credential: CredentialRecord,
  clock: Clock,
  key: Buffer,
  jti: string,
): TokenResponse {
  const iat = Math.floor(clock.nowMs() / 1000);
  const claims: JwtClaims = {
    sub: credential.id,
    client_id: credential.id,
    partner: credential.partner_id,
    iat,
    exp: iat + TOKEN_LIFETIME_SECONDS,
    jti,
  };
  return {
    access_token: `${TOKEN_PREFIX}${signJwt(claims, key)}`,
    token_type: 'Bearer',
    expires_in: TOKEN_LIFETIME_SECONDS,
  };
}

/** Checks format and signature (not expiry: that needs the partner's clock). Throws 401 problems. */
export function decodeAccessToken(token: string, key: Buffer): TokenSubject {
  const claims = token.startsWith(TOKEN_PREFIX)
    ? verifyJwt(token.slice(TOKEN_PREFIX.length), key)
    : undefined;
  if (
    !claims ||
    typeof claims.partner !== 'string' ||
    typeof claims.client_id !== 'string' ||
    typeof claims.exp !== 'number'
  ) {
    throw new ApiError(
      'invalid_token',
      'The bearer token was not issued by this sandbox (bad format, signature or algorithm). Request one from POST /v3/auth/token.',
    );
  }
  return { partnerId: claims.partner, clientId: claims.client_id, exp: claims.exp };
}

/** Throws 401 `token_expired` when the partner clock has reached the token's `exp`. */
export function assertNotExpired(subject: TokenSubject, clock: Clock): void {
  if (clock.nowMs() >= subject.exp * 1000) {
    throw new ApiError(
      'token_expired',
      `The access token expired at ${new Date(subject.exp * 1000).toISOString()} (partner clock now ${clock.iso()}). Request a new token from POST /v3/auth/token.`,
    );
  }
}
