import type { z } from 'zod';
import type { ProblemSchema } from '../api/schemas/common.js';
import { issueAccessToken, TOKEN_LIFETIME_SECONDS } from '../domain/access-tokens.js';
import type { AppDeps } from '../http/deps.js';
import type { InProcessBindings } from '../http/self-fetch.js';
import type { DashboardSession } from './session.js';

export type { InProcessBindings };
export type Problem = z.infer<typeof ProblemSchema>;

/** The app's own fetch, with in-process bindings. */
export type AppFetch = (request: Request, env: InProcessBindings) => Promise<Response>;

export type ApiResult<T> =
  | { ok: true; status: number; body: T; headers: Headers }
  | { ok: false; status: number; problem: Problem; headers: Headers };

/** Calls the sandbox API as the signed-in partner, through the whole app (auth, limits, validation). */
export interface DashboardApi {
  get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<ApiResult<T>>;
  post<T>(path: string, body?: unknown, extra?: Partial<InProcessBindings>): Promise<ApiResult<T>>;
  delete<T>(path: string): Promise<ApiResult<T>>;
  /** The answer as it came (a file to download); `body` sent as is with its content type. */
  raw(method: string, path: string, body?: { data: Uint8Array; contentType: string }): Promise<Response>;
}

/** Sends a request through the app and reads its JSON or problem answer. */
export async function callApi<T>(
  fetch: AppFetch,
  request: Request,
  extra: Partial<InProcessBindings> = {},
): Promise<ApiResult<T>> {
  const res = await fetch(request, { ...extra, dashboard: true });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (res.ok) return { ok: true, status: res.status, body: body as T, headers: res.headers };
  const problem =
    body !== null && typeof body === 'object' && 'detail' in body
      ? (body as Problem)
      : { type: 'about:blank', title: 'Error', status: res.status, detail: String(text || res.statusText) };
  return { ok: false, status: res.status, problem, headers: res.headers };
}

const ORIGIN = 'http://dashboard.internal';

/**
 * An API client for one session. Its access token is minted for the session's credential (the one
 * that signed in) and renewed when the partner clock nears its expiry, so a clock jump never ends
 * the session. Tokens are cached per credential so the API's verified-token cache is not flooded.
 */
export function sessionApi(deps: AppDeps, fetch: AppFetch, session: DashboardSession): DashboardApi {
  const token = () => accessToken(deps, session);
  const send = <T>(method: string, path: string, body: unknown, extra?: Partial<InProcessBindings>) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request = new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return callApi<T>(fetch, request, extra);
  };
  return {
    get: (path, query) => {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query ?? {})) {
        if (value !== undefined && value !== '') search.set(name, String(value));
      }
      const qs = search.toString();
      return send('GET', qs ? `${path}?${qs}` : path, undefined);
    },
    post: (path, body, extra) => send('POST', path, body ?? {}, extra),
    delete: (path) => send('DELETE', path, undefined),
    raw: (method, path, body) =>
      fetch(
        new Request(`${ORIGIN}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token()}`,
            ...(body ? { 'content-type': body.contentType } : {}),
          },
          ...(body ? { body: body.data } : {}),
        }),
        { dashboard: true },
      ),
  };
}

const tokens = new WeakMap<AppDeps, Map<string, { token: string; expMs: number }>>();
const TOKENS_KEPT = 10_000;

function accessToken(deps: AppDeps, session: DashboardSession): string {
  let cache = tokens.get(deps);
  if (!cache) {
    cache = new Map();
    tokens.set(deps, cache);
  }
  const clock = deps.engine.clock(session.partnerId);
  const now = clock.nowMs();
  const cached = cache.get(session.clientId);
  // Renewed a minute early; a reset can move the clock back, so a token from "the future" is renewed too.
  if (cached && now < cached.expMs - 60_000 && now > cached.expMs - TOKEN_LIFETIME_SECONDS * 1000) {
    return cached.token;
  }
  const credential = deps.store.credentials.get(session.clientId);
  // A revoked credential gets no token; the API then answers 401 and the dashboard signs out.
  if (credential?.status !== 'active' || credential.partner_id !== session.partnerId) {
    cache.delete(session.clientId);
    return 'revoked';
  }
  const key = Buffer.from(deps.store.meta.signing_key, 'base64url');
  const issued = issueAccessToken(credential, clock, key, deps.ids('jti_'));
  // Bounded: a sandbox that runs for months sees many credentials sign in (and many go).
  if (cache.size >= TOKENS_KEPT) cache.clear();
  cache.set(session.clientId, {
    token: issued.access_token,
    expMs: Math.floor(now / 1000) * 1000 + TOKEN_LIFETIME_SECONDS * 1000,
  });
  return issued.access_token;
}
