import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { parseChaosOption } from './chaos-option.js';
import { action, EXIT, FailedError, UsageError } from './context.js';
import { PARTNER_CLOCK, positiveInt } from './events.js';
import { claimEndpoint, type ListenEndpoint, releaseEndpoint } from './listen-endpoint.js';
import { listenSecrets } from './listen-secrets.js';
import { absoluteUrl } from './urls.js';

/** Headers relayed unchanged, so the signature still verifies at the forward target. */
const RELAYED = /^(webhook-|content-type$|user-agent$)/;

/**
 * `listen --forward-to <url>`: points the partner's listen endpoint for that URL (one per forward
 * URL, kept across runs with its secret, like the Stripe CLI's) at a receiver this command runs,
 * prints the endpoint's secret, and relays every delivery — body and webhook-* headers byte for
 * byte — to the local app. The app's answer goes back to the sandbox, so a failing app sees the
 * real retry schedule. The endpoint is disabled on exit; `--new-secret` rotates its secret.
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
    .option(
      '--new-secret',
      "rotate the signing secret of this forward URL's endpoint (the old one stops at once)",
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
            newSecret?: boolean;
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

          let endpoint: ListenEndpoint | undefined;
          try {
            endpoint = await claimEndpoint(client, listenSecrets(), {
              forward,
              relayUrl,
              patterns,
              newSecret: opts.newSecret === true,
            });
            // The endpoint is kept across runs: chaos is this run's, or none.
            if (chaos) {
              await client.call('PUT', `/v3/sandbox/webhooks/endpoints/${endpoint.id}/chaos`, {
                body: chaos,
              });
            } else {
              await client.call('DELETE', `/v3/sandbox/webhooks/endpoints/${endpoint.id}/chaos`, {
                accept: [200, 204, 404],
              });
            }
          } catch (error) {
            // A refused --chaos must not leave the endpoint delivering to a relay that is gone.
            if (endpoint) await releaseEndpoint(client, endpoint.id).catch(() => {});
            server.close();
            throw error;
          }
          // Ready only once a signal stops it cleanly: a Ctrl-C or kill right after the ready line
          // (a script's, or a test's on a busy machine) would otherwise end the process unhandled.
          const onSignal = () => finish(EXIT.ok);
          process.once('SIGINT', onSignal);
          process.once('SIGTERM', onSignal);
          out.line(
            {
              event: 'ready',
              endpoint_id: endpoint.id,
              secret: endpoint.secret,
              url: relayUrl,
              forward_to: forward.href,
              events: endpoint.events,
              chaos: chaos ?? null,
              secret_origin: endpoint.origin,
            },
            [
              `Ready. Relaying ${patterns.length ? patterns.join(', ') : 'all events'} from ${client.baseUrl} to ${forward.href}`,
              `Your webhook signing secret is ${endpoint.secret}  (endpoint ${endpoint.id}, relay ${relayUrl})`,
              ORIGIN[endpoint.origin],
              ...(chaos ? [`Chaos on: ${opts.chaos} (see every act in credit-sandbox's delivery log)`] : []),
              'Press Ctrl-C to stop; the endpoint is disabled on exit and reused next time.',
            ].join('\n'),
          );

          const timer =
            timeoutMs === undefined
              ? undefined
              : setTimeout(() => finish(max === undefined ? EXIT.ok : -1), timeoutMs);
          const code = await finished;
          if (timer) clearTimeout(timer);

          // The endpoint stays for the next run, disabled: nothing is queued for a relay that is gone.
          try {
            await releaseEndpoint(client, endpoint.id);
            out.progress(`disabled endpoint ${endpoint.id} (kept for the next listen to ${forward.href})`);
          } catch (error) {
            out.progress(`could not disable endpoint ${endpoint.id}: ${(error as Error).message}`);
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

const ORIGIN: Record<ListenEndpoint['origin'], string> = {
  created: 'A new endpoint for this forward URL: the next listen to it prints the same secret.',
  reused: 'The same endpoint and secret as the last listen to this forward URL (--new-secret rotates it).',
  rotated: "A new secret for this forward URL's endpoint: update your app (the old secret stopped signing).",
};

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
