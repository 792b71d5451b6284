import { Agent, type IncomingHttpHeaders, type RequestOptions, request } from 'node:http';

/**
 * The CLI talks HTTP through `node:http`, which every Node process has loaded already: the undici
 * package it used before cost ~200 ms of CPU to load, more than the rest of a command's start.
 * One keep-alive pool for the whole CLI process (the token request and the call share a socket;
 * `action` exits the process when the command is done).
 */
const agent = new Agent({ keepAlive: true });

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One request, the whole answer read as UTF-8 text. */
async function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  timeoutMs: number | undefined,
): Promise<RawAnswer> {
  const secure = url.protocol === 'https:';
  const send = secure ? (await import('node:https')).request : request;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const options: RequestOptions = { method, headers, ...(secure ? {} : { agent }) };
  return new Promise((resolve, reject) => {
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.once('error', reject);
    if (timeoutMs !== undefined) {
      req.setTimeout(timeoutMs, () =>
        req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      );
    }
    req.end(body);
  });
}

/** An answer of the sandbox API. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
}

/** The API refused a request (any status besides the expected ones): exit code 1. */
export class ApiCallError extends Error {
  override name = 'ApiCallError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly response: ApiResponse,
  ) {
    super(`${method} ${path} answered ${describe(response)}`);
  }
}

/** The sandbox could not be reached, or the exchange broke off: exit code 1, with a hint. */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
  constructor(
    message: string,
    /** The socket error's code (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`…). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Which flag or variable gave the id and the secret ('default' when neither did). */
  credentialSource?: { clientId: string; clientSecret: string };
}

/** The token endpoint refused the credential: says which one was sent and where it came from. */
export class CredentialError extends ApiCallError {
  override name = 'CredentialError';
  constructor(response: ApiResponse, options: ClientOptions) {
    super('POST', '/v3/auth/token', response);
    const source = options.credentialSource ?? { clientId: 'default', clientSecret: 'default' };
    const id = `client id ${options.clientId} (${source.clientId === 'default' ? 'the default' : `from ${source.clientId}`})`;
    const secret =
      source.clientSecret === 'default'
        ? "the default partner's secret (no --client-secret or CREDIT_SANDBOX_CLIENT_SECRET given)"
        : `the secret from ${source.clientSecret}`;
    this.message = `${this.message} — sent ${id} with ${secret}. Set both --client-id and --client-secret (or CREDIT_SANDBOX_CLIENT_ID and CREDIT_SANDBOX_CLIENT_SECRET) to a credential of this sandbox.`;
  }
}

export interface CallOptions {
  body?: unknown;
  /** A multipart form (documents), encoded by the platform's `Response`. */
  form?: FormData;
  /** A body sent as is (e.g. a snapshot file), with its content type. */
  raw?: { data: Uint8Array; contentType: string };
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** Statuses that are not an error (default: any 2xx). */
  accept?: number[];
  /** Give up on an answer after this long (default: wait as long as it takes). */
  timeoutMs?: number;
}

/**
 * A small client of a running sandbox over HTTP. It gets an access token with the
 * client credentials and gets a new one when a request answers 401 — advancing the partner clock
 * past an hour expires tokens, exactly as the real tokens expire.
 */
export class SandboxClient {
  private token: string | undefined;

  constructor(readonly options: ClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/$/, '');
  }

  /** Calls the API; throws ApiCallError unless the status is accepted. */
  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<T> {
    return checked(method, path, await this.send<T>(method, path, options), options);
  }

  /** Calls the API and returns whatever it answered. */
  async send<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    this.token ??= await this.fetchToken();
    let response = await this.raw<T>(method, path, options, this.token);
    if (response.status === 401) {
      this.token = await this.fetchToken();
      response = await this.raw<T>(method, path, options, this.token);
    }
    return response;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    const response = await this.raw<{ access_token?: string }>('POST', '/v3/auth/token', {}, undefined, {
      authorization: `Basic ${basic}`,
    });
    if (response.status === 401) throw new CredentialError(response, this.options);
    if (response.status !== 200 || typeof response.body?.access_token !== 'string') {
      throw new ApiCallError('POST', '/v3/auth/token', response);
    }
    return response.body.access_token;
  }

  private async raw<T>(
    method: string,
    path: string,
    options: CallOptions,
    token: string | undefined,
    extraHeaders: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { ...options.headers, ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | Uint8Array | undefined;
    if (options.form) {
      const encoded = new Response(options.form);
      body = new Uint8Array(await encoded.arrayBuffer());
      headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
    } else if (options.raw) {
      body = options.raw.data;
      headers['content-type'] = options.raw.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let res: RawAnswer;
    try {
      res = await exchange(url, method, headers, body, options.timeoutMs);
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      if (url.protocol === 'https:' && /SSL|TLS|EPROTO/i.test(`${code} ${(error as Error).message}`)) {
        // node:https says EPROTO; OpenSSL's reason ("wrong version number") is in the message.
        const reason = /SSL routines:[^:]*:([^:]+)/.exec((error as Error).message)?.[1];
        throw new UnreachableError(
          `${this.baseUrl} did not answer TLS (${code}${reason ? `: ${reason}` : ''}): the sandbox speaks plain http. Use ${this.baseUrl.replace(/^https:/, 'http:')} instead.`,
          code,
        );
      }
      if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') {
        throw new UnreachableError(
          `cannot reach the sandbox at ${this.baseUrl} (${code}). Is it running? Start it with \`credit-sandbox serve\`, or set CREDIT_SANDBOX_URL / --url.`,
          code,
        );
      }
      throw new UnreachableError(`${method} ${path} to ${this.baseUrl} got no whole answer (${code})`, code);
    }
    const text = res.text;
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    let parsed: unknown = text === '' ? undefined : text;
    if (text !== '' && /json/.test(flat['content-type'] ?? '')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, headers: flat, body: parsed as T };
  }
}

/** The answer's body, or ApiCallError unless its status is accepted (default: any 2xx). */
export function checked<T>(method: string, path: string, response: ApiResponse<T>, options: CallOptions): T {
  const accepted = options.accept
    ? options.accept.includes(response.status)
    : response.status >= 200 && response.status < 300;
  if (!accepted) throw new ApiCallError(method, path, response);
  return response.body;
}

/** `422 credit_offer_expired: Credit offer co_… expired …` (the problem's own words). */
export function describe(response: ApiResponse): string {
  const body = response.body as { code?: unknown; detail?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.detail === 'string') {
    return `${response.status}${typeof body.code === 'string' ? ` ${body.code}` : ''}: ${body.detail}`;
  }
  return `${response.status}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`;
}
