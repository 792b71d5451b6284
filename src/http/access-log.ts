import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactTarget } from '../lib/redact.js';

/** `--log`: one line per request for people (`pretty`), for log collectors (`json`), or none. */
export type AccessLogFormat = 'pretty' | 'json' | 'off';

export const ACCESS_LOG_FORMATS: readonly AccessLogFormat[] = ['pretty', 'json', 'off'];

/**
 * Logs each request when it has been answered: real time, method, path, status and how long it
 * took. 404s and errors are logged like any other answer. Docker's health probe (`GET /healthz`
 * answered 200) is left out: it would be most of the log of an idle container.
 *
 * Cheap on every request: the request path's Node entry (src/http/pipeline/entries.ts) calls `line`
 * once it has written an answer it made synchronously; every other request is watched through its
 * response's `finish` event. The timestamp text
 * is made once per millisecond, and the lines of one event-loop turn go out in one write (at the
 * end of the turn, or on `flush`). What waits is text only, at most one turn's worth.
 */
/** Request ids of answers sent through `app.fetch`, by their Node response (see noteRequestId). */
const requestIds = new WeakMap<object, string>();

export class AccessLog {
  private pending = '';
  private scheduled = false;
  private stampMs = -1;
  private stamp = '';

  constructor(
    private readonly format: Exclude<AccessLogFormat, 'off'>,
    private readonly write: (text: string) => void,
  ) {}

  /**
   * One answered request; `startedMs` is its `performance.now()` when it arrived, `requestId` its
   * `Request-Id` (JSON lines carry it, so a line leads to the inspector's entry and the server's
   * own log lines about the same request).
   */
  line(method: string, path: string, status: number, startedMs: number, requestId?: string): void {
    if (status === 200 && path === '/healthz') return;
    // Secrets in a query (`?client_secret=…`) or a path never reach the log.
    const shown = redactTarget(path);
    const durationMs = Math.round((performance.now() - startedMs) * 10) / 10;
    const now = Date.now();
    if (now !== this.stampMs) {
      this.stampMs = now;
      this.stamp = new Date(now).toISOString();
    }
    this.pending +=
      this.format === 'json'
        ? `${JSON.stringify({ time: this.stamp, method, path: shown, status, duration_ms: durationMs, request_id: requestId })}\n`
        : `${this.stamp}  ${method.padEnd(6)} ${shown}  ${status}  ${durationMs} ms\n`;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /**
   * Notes the `Request-Id` of the answer `res` is about to send: headers given to `writeHead` as a
   * whole (as @hono/node-server does) are not seen by `res.getHeader`.
   */
  static noteRequestId(res: object, requestId: string | undefined): void {
    if (requestId !== undefined) requestIds.set(res, requestId);
  }

  /** Logs a request once its response has been sent (answers made asynchronously, other routes). */
  watch(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    res.once('finish', () => {
      const requestId = res.getHeader('request-id') ?? requestIds.get(res);
      this.line(
        req.method ?? 'GET',
        req.url ?? '/',
        res.statusCode,
        started,
        typeof requestId === 'string' ? requestId : undefined,
      );
    });
  }

  /** Writes what is waiting now (the end of a turn, or shutdown). */
  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    try {
      this.write(text);
    } catch {
      // Run at the end of a turn, outside any request: a writer that fails loses these lines only.
    }
  };
}
