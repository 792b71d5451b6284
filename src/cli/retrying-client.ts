import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApiCallError,
  type ApiResponse,
  type CallOptions,
  checked,
  SandboxClient,
  UnreachableError,
} from './client.js';

/** Answers after which the same request (the same Idempotency-Key) is sent again. */
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Socket errors after which it is: the request may have run, its answer was lost. */
const LOST_ANSWER = new Set(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

export interface RetryOptions {
  /** Tries per request, the first included. */
  attempts: number;
  /** Gives up on one try's answer after this long (a fault that never answers). */
  timeoutMs: number;
  /** Told before each retry (the CLI prints it as progress). */
  onRetry?: (what: string) => void;
}

/**
 * The docs' retry recipe (docs/faults.md), as a client: every POST outside /v3/sandbox carries an
 * `Idempotency-Key`, and a 429/5xx answer, a reset connection, a truncated body or no answer at
 * all is retried with the same key (so an operation that ran answers its first response again,
 * `Idempotent-Replayed: true`), after `Retry-After` when the answer gives one, else after a short
 * backoff. GETs are retried the same way. Control calls (`/v3/sandbox/…`, never faulted, not all
 * idempotent) are sent once.
 */
export class RetryingClient extends SandboxClient {
  private readonly run = randomUUID().slice(0, 8);
  private sent = 0;

  constructor(
    base: SandboxClient,
    private readonly retry: RetryOptions,
  ) {
    super(base.options);
  }

  override async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<T> {
    const keyed = method === 'POST' && !path.startsWith('/v3/sandbox/');
    if (!keyed && method !== 'GET') return super.call<T>(method, path, options);
    this.sent += 1;
    const headers = keyed
      ? { 'idempotency-key': `cli-trigger-${this.run}-${this.sent}`, ...options.headers }
      : options.headers;
    const attempt = { ...options, ...(headers ? { headers } : {}), timeoutMs: this.retry.timeoutMs };
    for (let tries = 1; ; tries += 1) {
      let response: ApiResponse<T> | undefined;
      let failure: UnreachableError | undefined;
      try {
        response = await this.send<T>(method, path, attempt);
      } catch (error) {
        if (!(error instanceof UnreachableError) || !LOST_ANSWER.has(error.code ?? '')) throw error;
        failure = error;
      }
      const why = failure ? failure.code : response && retryReason(response);
      if (response && why === undefined) return checked(method, path, response, attempt);
      if (tries >= this.retry.attempts) {
        if (failure) throw failure;
        throw new ApiCallError(method, path, response as ApiResponse);
      }
      const waitMs = delayMs(response, tries);
      this.retry.onRetry?.(
        `${method} ${path}: ${why}; again in ${waitMs} ms${keyed ? ` with the same Idempotency-Key` : ''} (try ${tries + 1} of ${this.retry.attempts})`,
      );
      await sleep(waitMs);
    }
  }
}

/** Why an answer is worth another try, or undefined when it is final. */
function retryReason(response: ApiResponse): string | undefined {
  if (RETRY_STATUSES.has(response.status)) {
    const code = (response.body as { code?: unknown } | undefined)?.code;
    return `${response.status}${typeof code === 'string' ? ` ${code}` : ''}`;
  }
  // A JSON answer that does not parse was cut short (a truncating proxy, or a fault rule).
  if (/json/.test(response.headers['content-type'] ?? '') && typeof response.body === 'string')
    return `${response.status} with a truncated body`;
  return undefined;
}

/** `Retry-After` (seconds, at most a minute) when given, else 100 ms doubling up to 2 s. */
export function delayMs(response: ApiResponse | undefined, tries: number): number {
  const retryAfter = Number(response?.headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter, 60) * 1000;
  return Math.min(100 * 2 ** (tries - 1), 2000);
}
