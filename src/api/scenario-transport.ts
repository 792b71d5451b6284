import type { IncomingResponse, OutgoingRequest } from '../engine/scenarios/runner.js';
import type { SelfFetch } from '../http/self-fetch.js';

export interface TransportOptions {
  fetch: SelfFetch;
  /** The caller's bearer token. */
  token: string;
  /**
   * A fresh token for the same credential, as the partner's client would fetch from POST /auth/token
   * when a clock advance expires its token; undefined when the credential was revoked meanwhile.
   */
  refreshToken: () => string | undefined;
  sleep: (ms: number) => Promise<void>;
}

const MAX_RATE_LIMIT_RETRIES = 5;

/**
 * Sends scenario steps through the app with the partner's bearer token, behaving like a
 * well-written partner client: on 401 token_expired it gets a new token once and retries; on 429 it
 * waits Retry-After and retries.
 */
export function partnerTransport(
  options: TransportOptions,
): (request: OutgoingRequest) => Promise<IncomingResponse> {
  let token = options.token;
  return async (request) => {
    let refreshed = false;
    for (let attempt = 0; ; attempt += 1) {
      const res = await options.fetch(toRequest(request, token));
      const response = await fromResponse(res);
      if (res.status === 401 && !refreshed && problemCode(response) === 'token_expired') {
        const next = options.refreshToken();
        if (next) {
          token = next;
          refreshed = true;
          continue;
        }
      }
      if (res.status === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
        await options.sleep(Math.max(1, Number(res.headers.get('retry-after') ?? '1')) * 1000);
        continue;
      }
      return response;
    }
  };
}

function toRequest(request: OutgoingRequest, token: string): Request {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${token}`);
  let body: FormData | string | undefined;
  if (request.form) {
    body = request.form;
    headers.delete('content-type'); // fetch writes the multipart boundary itself
  } else if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  }
  return new Request(new URL(request.path, 'http://sandbox.internal'), {
    method: request.method,
    headers,
    body,
  });
}

async function fromResponse(res: Response): Promise<IncomingResponse> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = await res.text();
  let body: unknown = text === '' ? undefined : text;
  if (text !== '' && /json/.test(res.headers.get('content-type') ?? '')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, headers, body };
}

function problemCode(response: IncomingResponse): string | undefined {
  const body = response.body as { code?: unknown } | undefined;
  return body && typeof body.code === 'string' ? body.code : undefined;
}
