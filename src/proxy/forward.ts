import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { BodyCopy, type CapturedBody } from './body-copy.js';

/** One exchange as it went through, with bounded copies of both bodies. */
export interface CapturedExchange {
  /** Epoch milliseconds when the request arrived. */
  startedAt: number;
  ms: number;
  method: string;
  /** The request target as the client sent it (`/v3/customers?limit=2`). */
  target: string;
  /** Header names lower case; repeated headers joined by `, `. */
  requestHeaders: Record<string, string>;
  requestBody: CapturedBody;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: CapturedBody;
  /** The upstream failed or the exchange broke off; `status` is then the proxy's own answer (or 0). */
  error?: string;
}

export interface ForwardOptions {
  /** The upstream's origin and the path the client's paths are appended to (`''` or `/api`). */
  origin: string;
  root: string;
  dispatcher: Dispatcher;
  /** Bodies larger than this are forwarded whole but copied for validation only up to it. */
  copyLimit: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Called once the answer's last byte went out (or the exchange broke off). */
  done(exchange: CapturedExchange): void;
}

/** Hop-by-hop headers: they describe one connection, and each side of the proxy has its own. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'host',
]);

/** `rawHeaders` ([name, value, name, value…]) as one lower-case record. */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

/**
 * Forwards one request to the upstream and streams the answer back: the request's method, target,
 * headers (but the hop-by-hop ones and `Host`, which name the connection and the proxy) and body
 * bytes go upstream as they came; the answer's status line, headers (raw, in their order and case,
 * `Date` and `Connection` included) and body bytes come back as the upstream sent them. Both bodies
 * stream with backpressure; a bounded copy of each is kept for validation.
 */
export function forward(req: IncomingMessage, res: ServerResponse, options: ForwardOptions): void {
  const startedAt = Date.now();
  const started = performance.now();
  const target = req.url ?? '/';
  const requestCopy = new BodyCopy(options.copyLimit);
  const responseCopy = new BodyCopy(options.copyLimit);
  const requestHeaders = headerRecord(req.rawHeaders);
  const exchange: CapturedExchange = {
    startedAt,
    ms: 0,
    method: req.method ?? 'GET',
    target,
    requestHeaders,
    requestBody: { size: 0, bytes: undefined },
    status: 0,
    responseHeaders: {},
    responseBody: { size: 0, bytes: undefined },
  };
  let finished = false;
  const finish = (error?: string) => {
    if (finished) return;
    finished = true;
    exchange.ms = performance.now() - started;
    exchange.requestBody = requestCopy.result();
    exchange.responseBody = responseCopy.result();
    if (error !== undefined) exchange.error = error;
    options.done(exchange);
  };

  const connectionNamed =
    requestHeaders.connection === undefined
      ? undefined
      : new Set(requestHeaders.connection.split(',').map((name) => name.trim().toLowerCase()));
  const upstreamHeaders: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || connectionNamed?.has(lower)) continue;
    upstreamHeaders.push(name, req.rawHeaders[i + 1]!);
  }
  const hasBody =
    requestHeaders['transfer-encoding'] !== undefined || Number(requestHeaders['content-length'] ?? 0) > 0;
  // The body streams upstream through this generator, which keeps the bounded copy on the way
  // (pulled by undici, so the client's upload waits when the upstream does).
  async function* tee(): AsyncGenerator<Buffer> {
    for await (const chunk of req) {
      requestCopy.add(chunk as Buffer);
      yield chunk as Buffer;
    }
  }

  let controller: Dispatcher.DispatchController | undefined;
  const abort = () => {
    if (!res.writableFinished) controller?.abort(new Error('the client closed the connection'));
  };
  res.once('close', () => {
    abort();
    if (!res.writableFinished) finish('the client closed the connection before the answer ended');
  });

  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(ctrl) {
      controller = ctrl;
      if (res.destroyed) ctrl.abort(new Error('the client closed the connection'));
    },
    onResponseStart(ctrl, status, _headers, statusMessage) {
      const raw = (ctrl.rawHeaders ?? []) as Array<Buffer | string>;
      const flat = raw.map((part) => (typeof part === 'string' ? part : part.toString('latin1')));
      exchange.status = status;
      exchange.responseHeaders = headerRecord(flat);
      res.writeHead(status, statusMessage ?? '', flat);
    },
    onResponseData(ctrl, chunk) {
      responseCopy.add(chunk);
      if (!res.write(chunk)) {
        ctrl.pause();
        res.once('drain', () => ctrl.resume());
      }
    },
    onResponseEnd() {
      res.end(() => finish());
    },
    onResponseError(_ctrl, error) {
      const reason = describeError(error);
      if (!res.headersSent && !res.destroyed) {
        const status = /timeout/i.test(reason) ? 504 : 502;
        answerProblem(res, status, reason);
        exchange.status = status;
        exchange.responseHeaders = { 'content-type': 'application/problem+json' };
      } else res.destroy();
      finish(reason);
    },
  };

  options.dispatcher.dispatch(
    {
      origin: options.origin,
      path: `${options.root}${target}`,
      method: exchange.method as Dispatcher.HttpMethod,
      headers: upstreamHeaders,
      body: hasBody ? Readable.from(tee(), { objectMode: false }) : null,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
    },
    handler,
  );
}

function describeError(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { message?: unknown } }).cause?.message;
  return [
    typeof code === 'string' ? code : undefined,
    error.message,
    typeof cause === 'string' ? cause : undefined,
  ]
    .filter(Boolean)
    .join(': ');
}

/** The proxy's own answer when the upstream failed: a problem, the only bytes the proxy makes up. */
export function answerProblem(res: ServerResponse, status: number, detail: string): void {
  const title = status === 504 ? 'Upstream timed out' : 'Upstream unreachable';
  const body = JSON.stringify({
    type: 'about:blank',
    title,
    status,
    detail: `credit-sandbox proxy: ${detail}`,
    code: status === 504 ? 'proxy_upstream_timeout' : 'proxy_upstream_unreachable',
  });
  res.writeHead(status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
