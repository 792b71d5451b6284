import type { Command } from 'commander';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../domain/default-partner.js';
import { action, EXIT, FailedError, UsageError } from './context.js';
import { positiveInt } from './events.js';

/**
 * `proxy` and `replay` (docs/proxy.md). Both are clients of the API: their code lives in
 * `src/proxy/`, loaded only when one of them runs.
 */

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function port(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new UsageError('--port must be 0..65535');
  return value;
}

/** Turns the proxy room's own errors about the command line (a bad URL, an unreadable file) into usage errors. */
async function usage<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (['UpstreamError', 'ContractLoadError', 'RecordingFormatError', 'RangeError'].includes(name)) {
      throw new UsageError((error as Error).message);
    }
    if (name === 'TargetError') throw new FailedError((error as Error).message);
    throw error;
  }
}

interface ProxyOpts {
  upstream: string;
  port: string;
  host: string;
  record?: string;
  recordMaxBytes?: string;
  recordFiles?: string;
  openapi?: string;
  webhookRelay?: string;
  webhookSecret: string[];
  validateMaxBytes?: string;
  timeout?: string;
}

export function registerProxy(program: Command): void {
  program
    .command('proxy')
    .description(
      'a validating proxy: forwards your app to a real API unchanged, checks every exchange against the OpenAPI document, records the session',
    )
    .requiredOption(
      '--upstream <url>',
      'the API base URL, ending in /v3, e.g. https://staging.example.com/v3',
    )
    .option('--port <port>', 'port the proxy listens on (0 = any free port)', '8081')
    .option('--host <host>', 'interface the proxy listens on', '127.0.0.1')
    .option('--record <file>', 'write every exchange and delivery to this NDJSON file (secrets redacted)')
    .option('--record-max-bytes <n>', 'rotate the recording before it passes this size (default 64 MiB)')
    .option('--record-files <n>', 'recording files kept, the current one included (default 5)')
    .option('--openapi <file|url>', "the OpenAPI document (default: the upstream's /v3/openapi.json)")
    .option(
      '--webhook-relay <url>',
      "your app's webhook URL: turns the relay on (register the relay's URL with the upstream instead)",
    )
    .option(
      '--webhook-secret <secret>',
      'a signing secret deliveries may carry (repeatable, for rotations)',
      collect,
      [],
    )
    .option(
      '--validate-max-bytes <n>',
      'bodies larger than this are forwarded and recorded by size only (default 1 MiB)',
    )
    .option('--timeout <seconds>', 'upstream headers and body timeout (default 60)')
    .action(
      action(async ({ out }, opts: ProxyOpts) => {
        const listenPort = port(opts.port);
        const num = (text: string | undefined, flag: string) =>
          text === undefined ? undefined : positiveInt(text, flag);
        const { loadContract } = await import('../proxy/contract-load.js');
        const { startProxy } = await import('../proxy/proxy-server.js');
        const { parseUpstream } = await import('../proxy/upstream.js');
        const proxy = await usage(async () => {
          const upstream = parseUpstream(opts.upstream);
          const source = opts.openapi ?? `${upstream.href}/openapi.json`;
          out.progress(`loading the contract from ${source}…`);
          const contract = await loadContract(source);
          return startProxy({
            upstream: opts.upstream,
            contract,
            host: opts.host,
            port: listenPort,
            webhookRelay: opts.webhookRelay,
            webhookSecrets: opts.webhookSecret,
            validateMaxBytes: num(opts.validateMaxBytes, '--validate-max-bytes'),
            timeoutMs: opts.timeout === undefined ? undefined : positiveInt(opts.timeout, '--timeout') * 1000,
            record: opts.record
              ? {
                  file: opts.record,
                  maxBytes: num(opts.recordMaxBytes, '--record-max-bytes'),
                  files: num(opts.recordFiles, '--record-files'),
                }
              : undefined,
            print: (line) => out.line({ event: 'departure', line }, line),
          });
        });
        // Signals are handled before the banner says it is up: a kill right after it stops it cleanly.
        const stopped = new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        out.progress(
          [
            `credit-sandbox proxy: point your app at ${proxy.baseUrl} (forwarding to ${parseUpstream(opts.upstream).href})`,
            ...(proxy.relayUrl
              ? [
                  `webhook relay: register ${proxy.relayUrl} as your endpoint URL; deliveries are verified and forwarded to ${opts.webhookRelay}`,
                ]
              : []),
            ...(opts.record ? [`recording to ${opts.record}`] : []),
            'Departures print one line each. Press Ctrl-C to stop.',
          ].join('\n'),
        );
        await stopped;
        await proxy.close();
        const { stats } = proxy;
        const dropped = proxy.recorder?.dropped ?? 0;
        out.result(
          stats,
          () =>
            `${stats.exchanges} exchanges, ${stats.webhooks} webhook deliveries, ${stats.departures} departure${stats.departures === 1 ? '' : 's'}` +
            (dropped > 0 ? `; ${dropped} recording lines dropped (the disk fell behind)` : ''),
        );
        return stats.departures > 0 ? EXIT.failed : EXIT.ok;
      }),
    );

  program
    .command('replay')
    .description(
      'replay a recording against a sandbox partner, mapping ids, making the moves made outside the API, and list every structural difference',
    )
    .argument('<recordings...>', 'recording files, oldest first (a rotated recording: file.2 file.1 file)')
    .requiredOption('--target <url>', 'the sandbox base URL, ending in /v3, e.g. http://127.0.0.1:8080/v3')
    .option('--webhook-url <url>', 'register webhook endpoints with this URL instead of the recorded one')
    .option('--report <file>', 'also write the JSON report to this file')
    .option('-v, --verbose', 'list every exchange, not only differences and moves')
    .action(
      action(
        async (
          { out },
          files: string[],
          opts: { target: string; webhookUrl?: string; report?: string; verbose?: boolean },
          command: Command,
        ) => {
          const globals = command.optsWithGlobals<{ clientId?: string; clientSecret?: string }>();
          const clientId = globals.clientId ?? process.env.CREDIT_SANDBOX_CLIENT_ID;
          const clientSecret = globals.clientSecret ?? process.env.CREDIT_SANDBOX_CLIENT_SECRET;
          if ((clientId === undefined) !== (clientSecret === undefined)) {
            throw new UsageError(
              'give both --client-id and --client-secret, or neither (a new partner is made)',
            );
          }
          const { readRecordings } = await import('../proxy/recording-files.js');
          const { replay } = await import('../proxy/replay.js');
          const { describeReport } = await import('../proxy/replay-report.js');
          const report = await usage(async () =>
            replay({
              lines: await readRecordings(files),
              source: files.join(' '),
              target: opts.target,
              credential: clientId && clientSecret ? { clientId, clientSecret } : undefined,
              bootstrap: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
              webhookUrl: opts.webhookUrl,
              progress: opts.verbose ? (line) => out.progress(line) : undefined,
            }),
          );
          if (opts.report) {
            const { writeFile } = await import('node:fs/promises');
            await writeFile(opts.report, `${JSON.stringify(report, null, 2)}\n`);
          }
          out.result(report, () => describeReport(report, Boolean(opts.verbose)));
          return report.summary.differences > 0 ? EXIT.failed : EXIT.ok;
        },
      ),
    );
}
