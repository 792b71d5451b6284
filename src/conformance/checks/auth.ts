// Authentication (spec: "Authentication", "Authentication endpoints"): the token, its shape and
// lifetime, and what a request without a valid token gets.
import { okBody } from '../context.js';
import { basicAuthorization, type PartnerApi } from '../http.js';
import type { Check, CheckContext } from '../types.js';
import { expectClientError, expectEqual, expectStatus, expectTrue, fail } from '../verdict.js';
import { expectProblem } from './problems.js';

const SPEC = 'Authentication';

/** POST /auth/token with the partner's credential: the raw answer and its access token. */
async function issue(
  ctx: CheckContext,
): Promise<{ api: PartnerApi; token: string; body: Record<string, unknown> }> {
  const api = await ctx.partner();
  const answer = await api.raw('POST', '/auth/token', {
    authorization: basicAuthorization(api.clientId, api.clientSecret),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: 'grant_type=client_credentials',
  });
  const body = okBody(answer, 'POST /auth/token');
  const token = body.access_token;
  if (typeof token !== 'string')
    fail(
      'the token answer has no `access_token`',
      'access_token: string (OAuth 2.0 client credentials)',
      body,
      answer,
    );
  return { api, token, body };
}

function jwtParts(
  token: string,
): { header: Record<string, unknown>; payload: Record<string, unknown> } | undefined {
  const jwt = token.replace(/^svc_at_/, '');
  const parts = jwt.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString('utf8'));
    const payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'));
    return typeof header === 'object' && typeof payload === 'object' ? { header, payload } : undefined;
  } catch {
    return undefined;
  }
}

/** A protected request with `authorization` as given. */
async function protectedWith(ctx: CheckContext, authorization: string | null) {
  const api = await ctx.partner();
  return api.raw('GET', '/customers', { authorization, query: { limit: 1 } });
}

export const AUTH_CHECKS: Check[] = [
  {
    id: 'auth.token.issued',
    title: 'POST /auth/token with Basic client credentials returns an access token',
    spec: `${SPEC} 1–2`,
    needs: 'black-box',
    async run(ctx) {
      await issue(ctx);
    },
  },
  {
    id: 'auth.token.prefix',
    title: 'access tokens carry the prefix svc_at_',
    spec: `${SPEC} 5`,
    needs: 'black-box',
    async run(ctx) {
      const { token } = await issue(ctx);
      expectTrue(
        token.startsWith('svc_at_'),
        'the access token does not start with svc_at_',
        'svc_at_…',
        `${token.slice(0, 7)}…`,
      );
    },
  },
  {
    id: 'auth.token.jwt',
    title: 'the access token is a JWT (after its prefix)',
    spec: `${SPEC} 1`,
    needs: 'black-box',
    async run(ctx) {
      const { token } = await issue(ctx);
      const jwt = jwtParts(token);
      expectTrue(
        jwt !== undefined,
        'the access token is not a JWT (three base64url parts, JSON header and claims)',
        'svc_at_<header>.<claims>.<signature>',
        'something else',
      );
      expectTrue(typeof jwt.header.alg === 'string', 'the JWT header names no `alg`', 'alg', jwt.header);
    },
  },
  {
    id: 'auth.token.lifetime',
    title: 'the token expires 1 hour (3600 s) after it is issued',
    spec: `${SPEC} 4; Limits`,
    needs: 'black-box',
    async run(ctx) {
      const { token, body } = await issue(ctx);
      if (body.expires_in !== undefined)
        expectEqual(body.expires_in, 3600, '`expires_in` of the token answer');
      const claims = jwtParts(token)?.payload;
      if (typeof claims?.exp === 'number' && typeof claims.iat === 'number') {
        expectEqual(claims.exp - claims.iat, 3600, 'the JWT lifetime (exp − iat, seconds)');
      } else if (body.expires_in === undefined) {
        fail(
          'neither `expires_in` nor the JWT claims `iat`/`exp` say how long the token lives',
          '3600 s',
          body,
        );
      }
    },
  },
  {
    id: 'auth.token.wrong-secret',
    title: 'a wrong client secret gets no token (401)',
    spec: `${SPEC} 2, 8`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const answer = await api.raw('POST', '/auth/token', {
        authorization: basicAuthorization(api.clientId, 'svc_cs_test_not_the_secret'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'grant_type=client_credentials',
      });
      expectStatus(answer, 401, 'token with a wrong secret');
      expectProblem(answer, 401);
    },
  },
  {
    id: 'auth.bearer.missing',
    title: 'a request without a token is answered 401 (problem format)',
    spec: `${SPEC} 3, 8; Errors rule 3`,
    needs: 'black-box',
    async run(ctx) {
      const answer = await protectedWith(ctx, null);
      expectStatus(answer, 401, 'no Authorization header');
      expectProblem(answer, 401);
    },
  },
  {
    id: 'auth.bearer.invalid',
    title: 'a token that is not one the service issued is answered 401',
    spec: `${SPEC} 8; Errors rule 3`,
    needs: 'black-box',
    async run(ctx) {
      for (const value of [
        'Bearer not-a-token',
        'Bearer svc_at_eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl',
        'Token abc',
      ]) {
        const answer = await protectedWith(ctx, value);
        expectStatus(answer, 401, `Authorization: ${value.split(' ', 1)[0]} …`);
        expectProblem(answer, 401);
      }
    },
  },
  {
    id: 'auth.bearer.tampered',
    title: 'a token whose signature was altered is answered 401',
    spec: `${SPEC} 8`,
    needs: 'black-box',
    async run(ctx) {
      const { token } = await issue(ctx);
      const last = token.at(-2) === 'A' ? 'B' : 'A';
      const tampered = `${token.slice(0, -2)}${last}${token.slice(-1)}`;
      const answer = await protectedWith(ctx, `Bearer ${tampered}`);
      expectStatus(answer, 401, 'a token with an altered signature');
    },
  },
  {
    id: 'auth.bearer.valid',
    title: 'a token from POST /auth/token is accepted as Bearer on the other endpoints',
    spec: `${SPEC} 3`,
    needs: 'black-box',
    async run(ctx) {
      const { token } = await issue(ctx);
      const answer = await protectedWith(ctx, `Bearer ${token}`);
      expectStatus(answer, 200, 'GET /customers with the new token');
    },
  },
  {
    id: 'auth.bearer.expired',
    title: 'a token is accepted until 1 hour after issue and answered 401 after',
    spec: `${SPEC} 4, 8; Limits`,
    needs: 'controlled',
    async run(ctx) {
      const { token } = await issue(ctx);
      await ctx.advance('3590s');
      expectStatus(await protectedWith(ctx, `Bearer ${token}`), 200, 'the token 3590 s after issue');
      await ctx.advance('11s');
      const answer = await protectedWith(ctx, `Bearer ${token}`);
      expectStatus(answer, 401, 'the token 3601 s after issue');
      expectProblem(answer, 401);
    },
  },
  {
    id: 'auth.token.unknown-client',
    title: 'an unknown client id gets no token',
    spec: `${SPEC} 2, 8`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const answer = await api.raw('POST', '/auth/token', {
        authorization: basicAuthorization(`conformance-unknown-${ctx.facts.runTag}`, 'svc_cs_test_unknown'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'grant_type=client_credentials',
      });
      expectClientError(answer, 'token for an unknown client id');
      expectStatus(answer, 401, 'token for an unknown client id');
    },
  },
];
