import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import type { ParsedBody } from './body-copy.js';
import { checkExchange } from './checks.js';
import type { Contract } from './contract.js';
import { type Departure, departureLine } from './departures.js';
import { type CapturedExchange, forward } from './forward.js';
import { Recorder, type RecorderOptions } from './recorder.js';
import type { RecordingLine } from './recording-format.js';
import { exchangeLine, type RelayedDelivery, webhookLine } from './recording-lines.js';
import { relay } from './relay.js';
import { parseUpstream } from './upstream.js';

/** Bodies are validated (and recorded) up to this size; larger ones are forwarded unvalidated. */
export const DEFAULT_VALIDATE_MAX_BYTES = 1024 * 1024;
/** Body copies waiting for validation, in all; past it an exchange is recorded unvalidated. */
const MAX_PENDING_COPY_BYTES = 64 * 1024 * 1024;
/** The path the webhook relay answers on. */
export const RELAY_PATH = '/relay/webhooks';
/** Secrets learned from answers (an endpoint created or its secret rotated): the newest kept. */
const MAX_LEARNED_SECRETS = 64;

export interface ProxyConfig {
  /** The upstream's base URL, ending in `/v3`. */
  upstream: string;
  contract: Contract;
  host?: string;
  port?: number;
  record?: RecorderOptions;
  /** The app's webhook URL; turns the relay on. */
  webhookRelay?: string;
  webhookSecrets?: readonly string[];
  validateMaxBytes?: number;
  /** Upstream headers and body timeouts, each (default 60 s). */
  timeoutMs?: number;
  /** Where departure lines go (default: nowhere). */
  print?: (line: string) => void;
  /** Called with each recording line once it is written (or would be, without `record`). */
  onLine?: (line: RecordingLine) => void;
}

export interface RunningProxy {
  /** The proxy's base URL, `http://127.0.0.1:PORT/v3`: give it to the app instead of the upstream's. */
  baseUrl: string;
  /** The URL to register as the webhook endpoint instead of the app's, when the relay is on. */
  relayUrl: string | undefined;
  stats: { exchanges: number; webhooks: number; departures: number; unvalidated: number };
  recorder: Recorder | undefined;
  close(): Promise<void>;
}

/** Starts the validating proxy (see docs/proxy.md). */
export async function startProxy(config: ProxyConfig): Promise<RunningProxy> {
  const upstream = parseUpstream(config.upstream);
  const contract = config.contract;
  const validateMax = config.validateMaxBytes ?? DEFAULT_VALIDATE_MAX_BYTES;
  const timeoutMs = config.timeoutMs ?? 60_000;
  const print = config.print ?? (() => {});
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: timeoutMs } });
  const recorder = config.record ? new Recorder(config.record) : undefined;
  const learned: string[] = [];
  const secrets = () => [...(config.webhookSecrets ?? []), ...learned];
  const stats = { exchanges: 0, webhooks: 0, departures: 0, unvalidated: 0 };
  const relayTarget = config.webhookRelay === undefined ? undefined : new URL(config.webhookRelay);
  let pendingBytes = 0;
  // Lines are written in the order exchanges finished, whatever each check's duration.
  let queue: Promise<void> = Promise.resolve();

  const report = (subject: string, departures: readonly Departure[]) => {
    stats.departures += departures.length;
    for (const departure of departures) print(departureLine(subject, departure));
  };

  const learn = (exchange: CapturedExchange, template: string | undefined, response: ParsedBody) => {
    if (!template?.startsWith('/webhooks/endpoints') || exchange.status >= 300 || response.kind !== 'json')
      return;
    const secret = (response.value as { secret?: unknown } | null)?.secret;
    if (typeof secret === 'string' && !secrets().includes(secret)) {
      learned.push(secret);
      if (learned.length > MAX_LEARNED_SECRETS) learned.shift();
    }
  };

  const settle = async (exchange: CapturedExchange, size: number) => {
    stats.exchanges++;
    const query = exchange.target.indexOf('?');
    const path = query < 0 ? exchange.target : exchange.target.slice(0, query);
    const validated = size >= 0 && path.startsWith(upstream.clientPrefix) && exchange.error === undefined;
    const view = {
      method: exchange.method,
      path: path.slice(upstream.clientPrefix.length) || '/',
      requestHeaders: exchange.requestHeaders,
      requestBody: validated ? exchange.requestBody : { size: exchange.requestBody.size, bytes: undefined },
      status: exchange.status,
      responseHeaders: exchange.responseHeaders,
      responseBody: validated
        ? exchange.responseBody
        : { size: exchange.responseBody.size, bytes: undefined },
    };
    // A check that fails (a bug, a body no check foresaw) costs the exchange its checks, never its line.
    const verdict = await checkExchange(contract, view).catch((error: unknown) => ({
      operation: undefined,
      departures: [],
      notes: [`not validated: the checks failed (${String(error)})`],
      request: { kind: 'none' as const },
      response: { kind: 'none' as const },
    }));
    const departures = validated ? verdict.departures : [];
    const notes = validated ? verdict.notes : [unvalidatedNote(exchange, size < 0)];
    if (!validated) stats.unvalidated++;
    learn(exchange, verdict.operation?.template, verdict.response);
    const operation = verdict.operation?.id ?? null;
    report(`${operation ?? 'unknown operation'} ${exchange.method} ${path} → ${exchange.status}`, departures);
    if (!recorder && !config.onLine) return;
    const line = exchangeLine(exchange, operation, verdict.request, verdict.response, departures, notes);
    recorder?.write(line);
    config.onLine?.(line);
  };

  const done = (exchange: CapturedExchange) => {
    const size = (exchange.requestBody.bytes?.length ?? 0) + (exchange.responseBody.bytes?.length ?? 0);
    const fits = pendingBytes + size <= MAX_PENDING_COPY_BYTES;
    if (fits) pendingBytes += size;
    queue = queue.then(async () => {
      try {
        await settle(exchange, fits ? size : -1);
      } catch (error) {
        print(`credit-sandbox proxy: could not record an exchange: ${String(error)}`);
      }
      if (fits) pendingBytes -= size;
    });
  };

  const relayed = (delivery: RelayedDelivery, departures: Departure[], notes: string[]) => {
    queue = queue.then(() => {
      stats.webhooks++;
      report(
        `webhook ${delivery.type ?? '(no type)'} ${delivery.headers['webhook-id'] ?? ''}`.trim(),
        departures,
      );
      const line = webhookLine(delivery, departures, notes);
      recorder?.write(line);
      config.onLine?.(line);
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    res.sendDate = false;
    if (relayTarget && req.method === 'POST' && req.url?.split('?', 1)[0] === RELAY_PATH) {
      relay(req, res, { contract, target: relayTarget, dispatcher, secrets, timeoutMs, done: relayed }).catch(
        () => {
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        },
      );
      return;
    }
    forward(req, res, {
      origin: upstream.origin,
      root: upstream.root,
      dispatcher,
      copyLimit: validateMax,
      headersTimeoutMs: timeoutMs,
      bodyTimeoutMs: timeoutMs,
      done,
    });
  };

  const server = createServer(handle);
  // A request may take as long as the upstream may (a large upload over a slow link).
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port ?? 0, config.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${origin}${upstream.clientPrefix}`,
    relayUrl: relayTarget ? `${origin}${RELAY_PATH}` : undefined,
    stats,
    recorder,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await queue;
        await recorder?.close();
        await dispatcher.close();
      })();
      return closing;
    },
  };
}

function unvalidatedNote(exchange: CapturedExchange, behind: boolean): string {
  if (exchange.error !== undefined) return `not validated: ${exchange.error}`;
  if (behind) return 'not validated: the checks fell behind (over 64 MiB of bodies waiting)';
  return 'not validated: outside the API base path';
}
