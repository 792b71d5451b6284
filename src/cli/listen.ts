import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { parseChaosOption } from './chaos-option.js';
import { action, EXIT, FailedError, UsageError } from './context.js';
import { PARTNER_CLOCK, positiveInt } from './events.js';
import { absoluteUrl } from './urls.js';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

/** Headers relayed unchanged, so the signature still verifies at the forward target. */
const RELAYED = /^(webhook-|content-type$|user-agent$)/;

/**
 * `listen --forward-to <url>`: registers a temporary webhook endpoint that points at a receiver
 * this command runs, prints the endpoint's secret, and relays every delivery — body and webhook-*
 * headers byte for byte — to the local app. The app's answer goes back to the sandbox, so a
 * failing app sees the real retry schedule. The endpoint is deleted on exit.
 */
export function registerListen(program: Command): void {
  program
    .command('listen')
    .description('relay signed webhook deliveries to a local app (prints the signing secret)')
    .requiredOption(
      '-f, --forward-to <url>',
      'where to relay each delivery (your app), e.g. http://localhost:3000/webhooks',
    )
    .option('-e, --events <patterns>', 'comma-separated patterns, e.g. loan.*,customer.active (default: all)')
    .option('--host <host>', 'interface the relay listens on', '127.0.0.1')
    .option('--port <port>', 'port the relay listens on (0 = any free port)', '0')
    .option(
      '--public-host <host>',
      'host name the sandbox uses to reach the relay (e.g. host.docker.internal when the sandbox runs in Docker; the server must allow it with --webhook-http-hosts)',
    )
    .option(
      '--chaos <settings>',
      'make deliveries misbehave on purpose, e.g. duplicate=0.2,drop=0.1,delay=30s,reorder',
    )
    .option('--max <n>', 'exit after relaying this many deliveries')
    .option('--timeout <seconds>', 'exit after this many seconds of real time')
    .action(
      action(
        async (
          { client, out },
          opts: {
            forwardTo: string;
            events?: string;
            host: string;
            port: string;
            publicHost?: string;
            chaos?: string;
            max?: string;
            timeout?: string;
          },
        ) => {
          const forward = absoluteUrl(opts.forwardTo, '--forward-to');
          const port = Number(opts.port);
          if (!Number.isInteger(port) || port < 0 || port > 65535)
            throw new UsageError(`--port must be 0..65535`);
          const max = opts.max === undefined ? undefined : positiveInt(opts.max, '--max');
          const timeoutMs =
            opts.timeout === undefined ? undefined : positiveInt(opts.timeout, '--timeout') * 1000;
          const patterns = (opts.events ?? '')
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean);
          const chaos = opts.chaos === undefined ? undefined : parseChaosOption(opts.chaos);
          // Loaded here, not at the top: every other command's start would pay for it.
          const { request } = await import('undici');

          let relayed = 0;
          let finish: (code: number) => void = () => {};
          const finished = new Promise<number>((resolve) => {
            finish = resolve;
          });

          const server = createServer((req, res) => {
            void relay(request, req, res, forward).then((result) => {
              relayed += 1;
              const { type, timestamp } = eventSummary(result.body);
              out.line(
                {
                  event: 'delivery',
                  webhook_id: result.webhookId,
                  type,
                  event_timestamp: timestamp,
                  relayed_at: new Date().toISOString(),
                  forwarded_to: forward.href,
                  status: result.status,
                  error: result.error,
                  duration_ms: result.durationMs,
                },
                `${new Date().toISOString()} (real time)  ${(type ?? '?').padEnd(26)} ${result.webhookId ?? ''}  → ${result.status}${result.error ? ` (${result.error})` : ''} [${result.durationMs} ms]${timestamp ? `  event at ${timestamp}${PARTNER_CLOCK}` : ''}`,
              );
              if (max !== undefined && relayed >= max) finish(EXIT.ok);
            });
          });
          await new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen(port, opts.host, resolve);
          });
          const address = server.address() as AddressInfo;
          const host = opts.publicHost ?? (opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host);
          const relayUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/webhooks`;

          let endpoint: Endpoint | undefined;
          try {
            endpoint = await client.call<Endpoint>('POST', '/v3/webhooks/endpoints', {
              body: {
                url: relayUrl,
                events: patterns,
                description: `credit-sandbox listen (pid ${process.pid})`,
              },
            });
            if (chaos) {
              await client.call('PUT', `/v3/sandbox/webhooks/endpoints/${endpoint.id}/chaos`, {
                body: chaos,
              });
            }
          } catch (error) {
            // A refused --chaos must not leave the temporary endpoint behind.
            if (endpoint) {
              const id = endpoint.id;
              await client
                .call('DELETE', `/v3/webhooks/endpoints/${id}`, { accept: [200, 204, 404] })
                .catch(() => {});
            }
            server.close();
            throw error;
          }
          out.line(
            {
              event: 'ready',
              endpoint_id: endpoint.id,
              secret: endpoint.secret,
              url: relayUrl,
              forward_to: forward.href,
              events: endpoint.events,
              chaos: chaos ?? null,
            },
            [
              `Ready. Relaying ${patterns.length ? patterns.join(', ') : 'all events'} from ${client.baseUrl} to ${forward.href}`,
              `Your webhook signing secret is ${endpoint.secret}  (endpoint ${endpoint.id}, relay ${relayUrl})`,
              ...(chaos ? [`Chaos on: ${opts.chaos} (see every act in credit-sandbox's delivery log)`] : []),
              'Press Ctrl-C to stop; the endpoint is deleted on exit.',
            ].join('\n'),
          );

          const onSignal = () => finish(EXIT.ok);
          process.once('SIGINT', onSignal);
          process.once('SIGTERM', onSignal);
          const timer =
            timeoutMs === undefined
              ? undefined
              : setTimeout(() => finish(max === undefined ? EXIT.ok : -1), timeoutMs);
          const code = await finished;
          if (timer) clearTimeout(timer);

          // Clean up: the temporary endpoint goes away with the relay.
          try {
            await client.call('DELETE', `/v3/webhooks/endpoints/${endpoint.id}`, { accept: [200, 204, 404] });
            out.progress(`deleted endpoint ${endpoint.id}`);
          } catch (error) {
            out.progress(`could not delete endpoint ${endpoint.id}: ${(error as Error).message}`);
          }
          server.closeAllConnections();
          server.close();
          if (code === -1) {
            throw new FailedError(`relayed ${relayed} of ${max} deliveries within ${opts.timeout} s`);
          }
          return code;
        },
      ),
    );
}

interface RelayResult {
  webhookId: string | undefined;
  body: Buffer;
  status: number;
  error?: string;
  durationMs: number;
}

async function relay(
  request: typeof import('undici').request,
  req: IncomingMessage,
  res: ServerResponse,
  forward: URL,
): Promise<RelayResult> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (RELAYED.test(name) && typeof value === 'string') headers[name] = value;
  }
  const webhookId = headers['webhook-id'];
  const started = performance.now();
  try {
    const answer = await request(forward, { method: 'POST', headers, body });
    const text = await answer.body.text();
    // The app's status goes back to the sandbox: a failing app sees retries, as in production.
    res.writeHead(answer.statusCode, { 'content-type': 'text/plain' });
    res.end(text.slice(0, 1000));
    return {
      webhookId,
      body,
      status: answer.statusCode,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`credit-sandbox listen could not reach ${forward.href}: ${reason}`);
    return {
      webhookId,
      body,
      status: 502,
      error: `cannot reach ${forward.href}: ${reason}`,
      durationMs: Math.round(performance.now() - started),
    };
  }
}

/** The event's type and (partner-clock) timestamp, read from the delivered body. */
function eventSummary(body: Buffer): { type: string | undefined; timestamp: string | undefined } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { type?: unknown; timestamp?: unknown };
    return {
      type: typeof parsed.type === 'string' ? parsed.type : undefined,
      timestamp: typeof parsed.timestamp === 'string' ? parsed.timestamp : undefined,
    };
  } catch {
    return { type: undefined, timestamp: undefined };
  }
}
