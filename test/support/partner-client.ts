import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';

export interface RequestOptions {
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface JsonResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** One partner's client, over whatever sends a request (`app.request` in memory, `fetch` over HTTP). */
export interface PartnerClient {
  /** Sends a request with the default partner's (or the given) bearer token. */
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /** Same as request, parsing the JSON body. */
  json<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: RequestOptions,
  ): Promise<JsonResult<T>>;
  token(clientId?: string, clientSecret?: string): Promise<string>;
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

/**
 * The test helpers' partner client, written once for the in-memory sandbox and the PostgreSQL
 * suites' real HTTP: a token fetched on first use, JSON bodies, and one refresh on a 401 (the
 * default token expires when a test moves the clock past an hour, as a partner's client would see).
 */
export function partnerClient(
  send: (path: string, init: RequestInit) => Response | Promise<Response>,
  clientId = DEFAULT_CLIENT_ID,
  clientSecret = DEFAULT_CLIENT_SECRET,
): PartnerClient {
  let defaultToken: string | undefined;

  const token = async (id = clientId, secret = clientSecret): Promise<string> => {
    const res = await send('/v3/auth/token', {
      method: 'POST',
      headers: { authorization: basic(id, secret) },
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== null) {
      if (options.token === undefined) defaultToken ??= await token();
      headers.authorization ??= `Bearer ${options.token ?? defaultToken}`;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await send(path, { method, headers, body });
    if (res.status === 401 && options.token === undefined) {
      defaultToken = await token();
      headers.authorization = `Bearer ${defaultToken}`;
      return send(path, { method, headers, body });
    }
    return res;
  };

  const json = async <T>(method: string, path: string, options?: RequestOptions): Promise<JsonResult<T>> => {
    const res = await request(method, path, options);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };

  return { request, json, token };
}
