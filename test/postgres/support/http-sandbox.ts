import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../../src/domain/default-partner.js';
import { basic, type JsonResult, type RequestOptions, type TestSandbox } from '../../support/sandbox.js';

/**
 * The test helpers' sandbox interface over real HTTP (a running instance or the test's proxy),
 * acting as one partner. Only what the helpers use is provided: `request`, `json`, `token` and
 * `app.request` (the multipart upload helper).
 */
export function httpSandbox(
  baseUrl: () => string,
  clientId = DEFAULT_CLIENT_ID,
  clientSecret = DEFAULT_CLIENT_SECRET,
): TestSandbox {
  let defaultToken: string | undefined;
  const send = (path: string, init: RequestInit): Promise<Response> => fetch(`${baseUrl()}${path}`, init);

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

  const app = { request: (path: string, init: RequestInit) => send(path, init) };
  return { app, request, json, token } as unknown as TestSandbox;
}
