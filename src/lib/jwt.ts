import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Minimal HS256 JSON Web Tokens. Only HS256 is ever accepted: the header's `alg` must be exactly
 * "HS256", so `none`, RS256-with-HMAC-key confusion and other algorithm tricks are refused.
 */
export interface JwtClaims {
  [claim: string]: unknown;
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signJwt(claims: JwtClaims, key: Buffer): string {
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${hmac(body, key)}`;
}

/** Returns the claims when the token is a well-formed HS256 JWT signed with `key`, otherwise undefined. */
export function verifyJwt(token: string, key: Buffer): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const decodedHeader = parseJson(header);
  if (decodedHeader?.alg !== 'HS256') return undefined;
  const expected = Buffer.from(hmac(`${header}.${payload}`, key));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return parseJson(payload);
}

function hmac(data: string, key: Buffer): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

function parseJson(segment: string): JwtClaims | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JwtClaims)
      : undefined;
  } catch {
    return undefined;
  }
}
