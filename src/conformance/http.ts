// The kit's HTTP client: one request at a time, as any partner's integration would send it. It
// waits out 429 `Retry-After`, bounds every request in time, redacts what it records, and keeps
// the exchanges of each check in order (for the report and for `--compare`).
import { redact, redactHeaders } from './redact.js';
import type { Answer, ExchangeSink, PartnerApi, RequestOptions } from './wire.js';

export type { Answer, ExchangeSink, PartnerApi, RequestOptions } from './wire.js';

/** The target did not answer at all (refused connection, DNS, timeout). */
export class Unreachable extends Error {
  override name = 'Unreachable';
}

const RETRY_AFTER_CAP_MS = 60_000;
const MAX_RATE_LIMITED_RETRIES = 20;
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Replaces the ids in a path by `{id}`, so the same request on two targets gets the same label. */
export function labelOf(method: string, path: string): string {
  const bare = path.split('?', 1)[0] ?? path;
  const parts = bare.split('/').map((part, i, all) => {
    if (part === '' || i === 0) return part;
    const prev = all[i - 1];
    // A segment after a collection name is an id (customers/{id}, credentials/{client_id}), and
    // so is anything shaped like a prefixed id.
    if (/^[a-z]+_[A-Za-z0-9]{6,}$/.test(part)) return '{id}';
    if (prev === 'credentials' || prev === 'kyc') return part === 'approve' ? part : '{id}';
    return part;
  });
  return `${method} ${parts.join('/')}`;
}

export interface HttpOptions {
  baseUrl: string;
  requestTimeoutMs: number;
  sink?: ExchangeSink;
  /** Waits without blocking the process (injected in tests). */
  sleep?: (ms: number) => Promise<void>;
}

/** Sends one request to the target (below its base URL) and reads the whole answer. */
export async function send(
  options: HttpOptions,
  method: string,
  path: string,
  request: RequestOptions = {},
): Promise<Answer> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) query.set(name, String(value));
  }
  const fullPath = query.size > 0 ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
  const headers: Record<string, string> = { accept: 'application/json', ...(request.headers ?? {}) };
  if (request.authorization) headers.authorization = request.authorization;
  let body: string | FormData | undefined;
  if (request.raw !== undefined) body = request.raw;
  else if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl}${fullPath}`, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      // A kept-alive connection the server closed just as this request went out: nothing was
      // answered, so it is sent once more on a new connection (as browsers and most clients do).
      if (attempt === 0 && cause !== undefined && RESET.has(cause)) {
        await sleep(50);
        continue;
      }
      const why =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${options.requestTimeoutMs} ms`
          : (cause ?? (error as Error).message);
      throw new Unreachable(`${method} ${options.baseUrl}${fullPath}: ${why}`);
    }
    const text = await readCapped(response, `${method} ${fullPath}`);
    if (response.status === 429 && !request.noRetry && attempt < MAX_RATE_LIMITED_RETRIES) {
      await sleep(retryAfterMs(response.headers.get('retry-after')));
      continue;
    }
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answerHeaders[name] = value;
    });
    const answer: Answer = {
      method,
      path: fullPath,
      label: labelOf(method, path),
      status: response.status,
      headers: answerHeaders,
      text,
      body: parseJson(text),
      request: {
        method,
        path: fullPath,
        headers: redactHeaders(headers),
        body: request.body instanceof FormData ? '(multipart form)' : redact(request.body ?? request.raw),
        status: response.status,
      },
    };
    options.sink?.record(answer);
    return answer;
  }
}

/** At most this much of an answer is read: a larger one is a departure of its own, not a crash. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The answer's text, read up to MAX_ANSWER_BYTES (then the connection is dropped and this throws). */
async function readCapped(response: Response, what: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Unreachable(
        `${what}: the answer is larger than ${MAX_ANSWER_BYTES} bytes; the kit stopped reading it`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `Retry-After` in seconds or as an HTTP date; 1 s without one; at most a minute. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 1000;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms) || ms < 0) return 1000;
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `Basic base64(client_id:client_secret)`. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

/** A token kept between partner objects of one credential (the run's main credential). */
export interface TokenCache {
  token?: string;
}

export function partnerApi(
  http: HttpOptions,
  clientId: string,
  clientSecret: string,
  cache: TokenCache = {},
): PartnerApi {
  const fetchToken = async (): Promise<string> => {
    const answer = await send(http, 'POST', '/auth/token', {
      authorization: basicAuthorization(clientId, clientSecret),
      // OAuth 2.0 client credentials (RFC 6749 §4.4): the grant as a form.
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'grant_type=client_credentials',
    });
    const value = (answer.body as { access_token?: unknown } | undefined)?.access_token;
    if (answer.status !== 200 || typeof value !== 'string') {
      throw new CredentialRefused(
        `POST /auth/token with client id ${clientId} answered ${answer.status}: ${answer.text.slice(0, 300)}`,
      );
    }
    cache.token = value;
    return value;
  };
  const raw = (method: string, path: string, options?: RequestOptions) => send(http, method, path, options);
  return {
    clientId,
    clientSecret,
    token: fetchToken,
    raw,
    async call(method, path, options = {}) {
      if (options.authorization !== undefined) return raw(method, path, options);
      const first = await raw(method, path, {
        ...options,
        authorization: `Bearer ${cache.token ?? (await fetchToken())}`,
      });
      if (first.status !== 401) return first;
      return raw(method, path, { ...options, authorization: `Bearer ${await fetchToken()}` });
    },
  };
}

/** The token endpoint refused the credential. */
export class CredentialRefused extends Error {
  override name = 'CredentialRefused';
}
