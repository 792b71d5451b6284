import type { Command } from 'commander';
import { DEFAULT_PARTNER_ID, defaultCredentialFromEnv } from '../domain/default-partner.js';
import { parseTimings, type Timings } from '../engine/timings.js';
import { BRAZILIAN_STATES } from '../finance/business-days.js';
import { ACCESS_LOG_FORMATS, type AccessLogFormat } from '../http/access-log.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../http/connection-limits.js';
import type { HostedSafety } from '../http/deps.js';
import { DEFAULT_REQUEST_LOG_SIZE } from '../inspector/request-log.js';
import { hostedSafetyOptions, readHostedSafety } from './hosted-safety.js';

/** Default requests per second per partner (documented in the README). */
export const DEFAULT_RATE_LIMIT = 100;

export function registerServe(program: Command): void {
  const serve = program
    .command('serve', { isDefault: true })
    .description('start the sandbox HTTP server')
    .option('-p, --port <port>', 'port to listen on (env PORT)', process.env.PORT ?? '8080')
    .option('--host <host>', 'interface to bind (env HOST)', process.env.HOST ?? '127.0.0.1')
    .option('--clock <mode>', 'how partner clocks start: running | frozen', 'running')
    .option('--data <file>', 'persist to this JSON file and its FILE.journal (default: in memory)')
    .option(
      '--journal-limit <size>',
      "with --data: compact the journal into the snapshot once it exceeds this size (and the snapshot's), e.g. 64kb, 16mb",
      '16mb',
    )
    .option(
      '--database <url>',
      'shared mode: PostgreSQL connection URL, the store of record (env DATABASE_URL)',
      process.env.DATABASE_URL,
    )
    .option(
      '--instance-url <url>',
      'shared mode: the URL other instances reach this one at (env CREDIT_SANDBOX_INSTANCE_URL; default: the listening address)',
      process.env.CREDIT_SANDBOX_INSTANCE_URL,
    )
    .option('--public-url <url>', 'absolute URL partners reach the sandbox at (hosted pages, problem types)')
    .option('--webhook-http-hosts <hosts>', 'comma-separated hosts allowed as plain-http webhook targets', '')
    .option(
      '--webhook-timeout <ms>',
      'a webhook attempt without a complete 2xx answer within this many ms fails',
      '10000',
    )
    .option(
      '--scenarios <dirs>',
      'extra directories of scenario files, comma-separated (env CREDIT_SANDBOX_SCENARIOS)',
      process.env.CREDIT_SANDBOX_SCENARIOS ?? '',
    )
    .option(
      '--timings <list>',
      'automatic delays, e.g. contract_generation=0s,offer_validity=7d (see the README for the names)',
      '',
    )
    .option('--seed <text>', 'make every generated value (ids, secrets, tokens) reproducible from this seed')
    .option(
      '--start-time <date-time>',
      'where partner clocks start, e.g. 2026-03-02T12:00:00Z (default: now)',
    )
    .option('--holidays-region <state>', "add a Brazilian state's holidays to the banking calendar, e.g. SP")
    .option(
      '--rate-limit <rps>',
      'requests per second per partner; 0 turns it off',
      String(DEFAULT_RATE_LIMIT),
    )
    .option('--log <format>', 'access log on the console: pretty | json | off', 'pretty')
    .option(
      '--request-log-size <n>',
      'requests the request inspector keeps per partner; 0 keeps none',
      String(DEFAULT_REQUEST_LOG_SIZE),
    )
    .option(
      '--headers-timeout <ms>',
      'a client that has not sent complete request headers within this many ms is answered 408 and cut off',
      String(DEFAULT_HEADERS_TIMEOUT_MS),
    )
    .option(
      '--request-timeout <ms>',
      'a client that has not sent its whole request (body included) within this many ms is answered 408 and cut off',
      String(DEFAULT_REQUEST_TIMEOUT_MS),
    )
    .option(
      '--snapshot <file>',
      'load an exported snapshot (JSON or .json.gz) into the default partner at start (env CREDIT_SANDBOX_SNAPSHOT)',
      process.env.CREDIT_SANDBOX_SNAPSHOT || undefined,
    )
    .option('--hosted', 'shared by several people or partners: caps the open connections per client address')
    .option(
      '--max-connections-per-client <n>',
      'with --hosted, open connections one client address may hold',
      String(DEFAULT_MAX_CONNECTIONS_PER_CLIENT),
    )
    .action(async (opts: Record<string, string | undefined>) => {
      const port = Number(opts.port);
      const rateLimit = Number(opts.rateLimit);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        fail(`--port must be 0..65535, got "${opts.port}"`);
      if (!Number.isFinite(rateLimit) || rateLimit < 0)
        fail(`--rate-limit must be a number >= 0, got "${opts.rateLimit}"`);
      const journalLimitBytes = parseSize(opts.journalLimit ?? '');
      if (journalLimitBytes === null || journalLimitBytes < 1)
        fail(`--journal-limit must be a size such as 65536, 64kb or 16mb, got "${opts.journalLimit}"`);
      const webhookTimeoutMs = Number(opts.webhookTimeout);
      if (!Number.isInteger(webhookTimeoutMs) || webhookTimeoutMs < 1) {
        fail(`--webhook-timeout must be a positive integer of milliseconds, got "${opts.webhookTimeout}"`);
      }
      const requestLogSize = Number(opts.requestLogSize);
      if (!Number.isInteger(requestLogSize) || requestLogSize < 0 || requestLogSize > 1_000_000) {
        fail(`--request-log-size must be an integer 0..1000000, got "${opts.requestLogSize}"`);
      }
      const headersTimeoutMs = positiveInteger(opts.headersTimeout, '--headers-timeout');
      const requestTimeoutMs = positiveInteger(opts.requestTimeout, '--request-timeout');
      if (headersTimeoutMs > requestTimeoutMs) {
        fail(
          `--headers-timeout (${headersTimeoutMs}) must not exceed --request-timeout (${requestTimeoutMs})`,
        );
      }
      const maxConnectionsPerClient = positiveInteger(
        opts.maxConnectionsPerClient,
        '--max-connections-per-client',
      );
      let safety: HostedSafety;
      try {
        safety = readHostedSafety(opts);
      } catch (error) {
        fail((error as Error).message);
      }
      let timings: Timings;
      try {
        timings = parseTimings(opts.timings ?? '');
      } catch (error) {
        fail((error as Error).message);
      }
      let startTimeMs: number | undefined;
      if (opts.startTime !== undefined) {
        startTimeMs = parseStartTime(opts.startTime);
        if (startTimeMs === undefined)
          fail(
            `--start-time must be a date-time with a zone, e.g. 2026-03-02T12:00:00Z; got "${opts.startTime}"`,
          );
      }
      const holidaysRegion = opts.holidaysRegion?.toUpperCase();
      if (holidaysRegion !== undefined && !BRAZILIAN_STATES.includes(holidaysRegion))
        fail(
          `--holidays-region must be a Brazilian state (${BRAZILIAN_STATES.join(', ')}); got "${opts.holidaysRegion}"`,
        );
      if (opts.seed === '') fail('--seed needs a value, e.g. --seed ci-1');
      // Seeded streams keep their counters in the store's meta, which shared mode does not persist.
      if (opts.seed !== undefined && opts.database)
        fail('--seed is not supported with --database (shared mode) yet');
      const accessLog = opts.log as AccessLogFormat;
      if (!ACCESS_LOG_FORMATS.includes(accessLog))
        fail(`--log must be ${ACCESS_LOG_FORMATS.join(', ')}, got "${opts.log}"`);
      if (opts.data && opts.database) fail('--data and --database exclude each other: pick one store');
      if (opts.instanceUrl && !/^https?:\/\/[^/]+/.test(opts.instanceUrl)) {
        fail(
          `--instance-url must be an absolute http(s) URL other instances can reach, got "${opts.instanceUrl}"`,
        );
      }
      if (opts.database && !opts.instanceUrl && (opts.host === '0.0.0.0' || opts.host === '::')) {
        console.warn(
          'credit-sandbox: --database without --instance-url: other instances will forward to http://localhost:<port>, which only works on this machine. Set --instance-url to the address they reach this instance at.',
        );
      }
      if (opts.clock !== 'running' && opts.clock !== 'frozen')
        fail(`--clock must be running or frozen, got "${opts.clock}"`);
      let credential: ReturnType<typeof defaultCredentialFromEnv>;
      try {
        credential = defaultCredentialFromEnv(process.env);
      } catch (error) {
        fail((error as Error).message);
      }
      // Loaded here so the other commands (HTTP clients of a running sandbox) start fast.
      const { startServer } = await import('../server.js');
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        // A broken scenario file stops the start, not the first run.
        const { scenarioCatalog } = await import('../engine/scenarios/catalog.js');
        scenarioCatalog(splitList(opts.scenarios));
        server = await startServer({
          port,
          host: opts.host ?? '127.0.0.1',
          dataFile: opts.data,
          journalLimitBytes,
          databaseUrl: opts.database,
          instanceUrl: opts.instanceUrl,
          publicUrl: opts.publicUrl,
          clockMode: opts.clock,
          webhookHttpHosts: (opts.webhookHttpHosts ?? '')
            .split(',')
            .map((h) => h.trim())
            .filter(Boolean),
          rateLimit,
          headersTimeoutMs,
          requestTimeoutMs,
          // A boolean flag: commander stores `true` when it is given.
          hosted: (opts as Record<string, unknown>).hosted === true,
          maxConnectionsPerClient,
          safety,
          webhookTimeoutMs,
          requestLogSize,
          timings,
          seed: opts.seed,
          startTimeMs,
          holidaysRegion,
          credential,
          snapshotFile: opts.snapshot,
          scenarioDirs: splitList(opts.scenarios),
          accessLog,
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          console.error(
            `credit-sandbox: port ${port} on ${opts.host} is already in use (another sandbox?). Pick another with --port <n> (or PORT=<n>), or --port 0 for any free port.`,
          );
          process.exit(1);
        }
        if ((error as NodeJS.ErrnoException).code === 'EACCES') {
          console.error(
            `credit-sandbox: not allowed to listen on port ${port} of ${opts.host}. Pick a port above 1023 with --port <n>.`,
          );
          process.exit(1);
        }
        // A broken scenario file stops the start with the file, step and problem named.
        if ((error as Error).name === 'ScenarioFileError') {
          fail(`invalid scenario files:\n${(error as Error).message}`);
        }
        if ((error as Error).name === 'StartSnapshotError') fail((error as Error).message);
        throw error;
      }
      const publicUrl = server.deps.config.publicUrl;
      console.log(`credit-sandbox listening on ${server.url}`);
      console.log(`  API       ${publicUrl}/v3`);
      console.log(`  docs      ${publicUrl}/docs   (OpenAPI: ${publicUrl}/v3/openapi.json)`);
      console.log(`  dashboard ${publicUrl}/dashboard`);
      console.log(
        `  storage   ${opts.database ? `PostgreSQL ${redactUrl(opts.database)}` : opts.data ? opts.data : 'in memory'}; clock ${opts.clock}; rate limit ${rateLimit || 'off'}`,
      );
      if (server.shared) {
        console.log(`  instance  ${server.shared.cluster.instanceId} at ${server.shared.cluster.url}`);
      }
      console.log(
        `  hosted safety ${safety.webhookPublicOnly ? `on (public https webhooks; quotas ${safety.quotas?.customers} customers, ${safety.quotas?.eventsKept} events)` : 'off'}; partner sign-up ${safety.partnerSignup ? 'on' : 'off'}`,
      );
      if (opts.seed !== undefined || startTimeMs !== undefined) {
        const start = startTimeMs === undefined ? 'now' : new Date(startTimeMs).toISOString();
        console.log(`  seed      ${opts.seed ?? 'none (random values)'}; clocks start at ${start}`);
      }
      console.log(
        `  calendar  Brazilian banking days, ${holidaysRegion ? `national + ${holidaysRegion}` : 'national'}`,
      );
      console.log(`  default partner ${DEFAULT_PARTNER_ID}`);
      console.log(`    client_id      ${credential.clientId}`);
      console.log(`    client_secret  ${credential.clientSecret}`);
      stopOnSignals(server.close);
    });
  // Added after the chain: commander reads every option at parse time.
  hostedSafetyOptions(serve);
}

/** The URL without its password, for the start-up banner. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** An RFC 3339 date-time with a zone (`Z` or `±hh:mm`); a bare date or local time is ambiguous. */
function parseStartTime(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Longest a SIGTERM/SIGINT shutdown may take (docker stop waits 10 s before SIGKILL). */
const STOP_DEADLINE_MS = 2000;

/**
 * SIGTERM or SIGINT (docker stop, kill, Ctrl-C, npm forwarding its own signal) stops the server
 * cleanly: no new connections, pending writes flushed, a line saying it stopped, exit 0. A
 * second signal, or a shutdown that overruns its deadline, ends the process at once (exit 1).
 */
function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) {
      console.error(`credit-sandbox: ${reason} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    console.log(`credit-sandbox: ${reason}, stopping…`);
    setTimeout(() => {
      console.error(`credit-sandbox: did not stop within ${STOP_DEADLINE_MS} ms, exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    close().then(
      () => {
        console.log('credit-sandbox stopped');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('credit-sandbox: error while stopping', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT received'));
  process.on('SIGTERM', () => stop('SIGTERM received'));
  // Under `npm start` / `npx`, npm hands its SIGTERM to the `sh -c` it started, and sh does not
  // pass it on: the server would be left orphaned. When that shell is gone, stop as if signalled.
  if (process.env.npm_command) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop('npm exited');
    }, 250).unref();
  }
}

/** `65536`, `64kb`, `16mb`, `1gb` (powers of 1024) in bytes; null when unreadable. */
function parseSize(text: string): number | null {
  const match = /^(\d+)\s*(k|m|g)?b?$/i.exec(text.trim());
  if (!match) return null;
  const unit = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').toLowerCase()] ?? 1;
  return Number(match[1]) * unit;
}

function positiveInteger(value: string | undefined, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) fail(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function fail(message: string): never {
  console.error(`credit-sandbox: ${message}`);
  process.exit(2);
}
