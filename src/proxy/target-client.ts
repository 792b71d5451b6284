import { Agent, type FormData, request } from 'undici';

/** One answer of the target, headers lower case, the body parsed when it is JSON. */
export interface TargetAnswer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined when empty or not JSON. */
  body: unknown;
}

export interface Credential {
  clientId: string;
  clientSecret: string;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json), a form (multipart) or raw text with its own content type. */
  json?: unknown;
  form?: FormData;
  text?: string;
  /** Sends this Authorization instead of the bearer token (the token request's Basic). */
  authorization?: string;
}

/** The target could not be reached or answered nonsense: the replay stops with this message. */
export class TargetError extends Error {
  override name = 'TargetError';
}

/**
 * A small client of the API for the replay: one keep-alive connection pool, a bearer token got with
 * the credential and renewed when an answer says it expired (the replay moves the target's clock,
 * and a token lives one hour of it).
 */
export class TargetClient {
  private readonly dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  private token: string | undefined;
  readonly origin: string;
  readonly basePath: string;

  constructor(
    /** The target's base URL, ending in `/v3`. */
    readonly base: string,
    public credential: Credential,
    private readonly timeoutMs = 60_000,
  ) {
    const url = new URL(base);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  basic(credential = this.credential): string {
    return `Basic ${Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64')}`;
  }

  /** A fresh token for the credential. */
  async authenticate(): Promise<TargetAnswer> {
    const answer = await this.send('POST', '/auth/token', { authorization: this.basic() });
    const token = (answer.body as { access_token?: unknown } | undefined)?.access_token;
    if (answer.status !== 200 || typeof token !== 'string') {
      throw new TargetError(
        `${this.base}: the credential ${this.credential.clientId} was refused (${answer.status} ${JSON.stringify(answer.body)})`,
      );
    }
    this.token = token;
    return answer;
  }

  /** Uses a token got by a token request the replay made itself. */
  useToken(answer: TargetAnswer): void {
    const token = (answer.body as { access_token?: unknown } | undefined)?.access_token;
    if (answer.status === 200 && typeof token === 'string') this.token = token;
  }

  /** A call as the partner (`path` after the base URL, `/customers/…`), renewing an expired token once. */
  async call(method: string, path: string, options: CallOptions = {}): Promise<TargetAnswer> {
    if (options.authorization === undefined && this.token === undefined) await this.authenticate();
    const first = await this.send(method, path, options);
    const code = (first.body as { code?: unknown } | undefined)?.code;
    if (first.status === 401 && options.authorization === undefined && code === 'token_expired') {
      await this.authenticate();
      return this.send(method, path, options);
    }
    return first;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async send(method: string, path: string, options: CallOptions): Promise<TargetAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    headers.authorization = options.authorization ?? `Bearer ${this.token ?? ''}`;
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.text !== undefined) body = options.text;
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(`${this.origin}${this.basePath}${path}`, {
        method: method as 'GET',
        headers,
        body,
        dispatcher: this.dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (error) {
      throw new TargetError(
        `${method} ${this.base}${path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const text = await answer.body.text();
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: answer.statusCode, headers: flat, body: parsed };
  }
}
