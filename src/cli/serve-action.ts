// What `serve` does: validates its options, starts the server, prints the banner (serve.ts
// defines the command and loads this file when it runs).
import { LEASE_MS_BOUNDS } from '../cluster/cluster.js';
import { FORWARD_WAIT_MS_BOUNDS } from '../cluster/forward-wait.js';
import { defaultCredentialFromEnv } from '../domain/default-partner.js';
import { parseTimings, type Timings } from '../engine/timings.js';
import { BRAZILIAN_STATES } from '../finance/business-days.js';
import { ACCESS_LOG_FORMATS, type AccessLogFormat } from '../http/access-log.js';
import type { HostedSafety } from '../http/deps.js';
import { LATEST_CLOCK_MS } from '../store/record-rules.js';
import { readHostedSafety } from './hosted-safety.js';
import { printBanner } from './serve-banner.js';
import {
  boundedInteger,
  fail,
  parseSize,
  parseStartTime,
  positiveInteger,
  splitList,
} from './serve-parsing.js';
import { stopOnSignals } from './serve-signals.js';
import { readTenancy, type TenancySettings } from './tenancy-options.js';

/** Starts the sandbox with the parsed `serve` options (exits 2 on a bad value). */
export async function serve(opts: Record<string, string | undefined>): Promise<void> {
  const port = Number(opts.port);
  const rateLimit = Number(opts.rateLimit);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be 0..65535, got "${opts.port}"`);
  if (!Number.isFinite(rateLimit) || rateLimit < 0)
    fail(`--rate-limit must be a number >= 0, got "${opts.rateLimit}"`);
  const journalLimitBytes = parseSize(opts.journalLimit ?? '');
  if (journalLimitBytes === null || journalLimitBytes < 1)
    fail(`--journal-limit must be a size such as 65536, 64kb or 16mb, got "${opts.journalLimit}"`);
  const maxSnapshotBytesTotal = parseSize(opts.maxSnapshotBytesTotal ?? '');
  if (maxSnapshotBytesTotal === null || maxSnapshotBytesTotal < 1)
    fail(
      `--max-snapshot-bytes-total must be a size such as 128mb or 1gb, got "${opts.maxSnapshotBytesTotal}"`,
    );
  const webhookTimeoutMs = Number(opts.webhookTimeout);
  if (!Number.isInteger(webhookTimeoutMs) || webhookTimeoutMs < 1) {
    fail(`--webhook-timeout must be a positive integer of milliseconds, got "${opts.webhookTimeout}"`);
  }
  const requestLogSize = Number(opts.requestLogSize);
  if (!Number.isInteger(requestLogSize) || requestLogSize < 0 || requestLogSize > 1_000_000) {
    fail(`--request-log-size must be an integer 0..1000000, got "${opts.requestLogSize}"`);
  }
  const leaseMs = boundedInteger(opts.lease, '--lease', LEASE_MS_BOUNDS);
  const forwardWaitMs = boundedInteger(opts.forwardWait, '--forward-wait', FORWARD_WAIT_MS_BOUNDS);
  // A shorter wait would answer 503 before a dead owner's lease can even expire.
  if (forwardWaitMs < leaseMs)
    fail(`--forward-wait (${forwardWaitMs}) must be at least --lease (${leaseMs})`);
  const headersTimeoutMs = positiveInteger(opts.headersTimeout, '--headers-timeout');
  const requestTimeoutMs = positiveInteger(opts.requestTimeout, '--request-timeout');
  if (headersTimeoutMs > requestTimeoutMs) {
    fail(`--headers-timeout (${headersTimeoutMs}) must not exceed --request-timeout (${requestTimeoutMs})`);
  }
  const maxConnectionsPerClient = positiveInteger(
    opts.maxConnectionsPerClient,
    '--max-connections-per-client',
  );
  let safety: HostedSafety;
  let tenancy: TenancySettings;
  try {
    safety = readHostedSafety(opts);
    tenancy = readTenancy(opts);
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
    if (startTimeMs === undefined || startTimeMs < 0 || startTimeMs >= LATEST_CLOCK_MS)
      fail(
        `--start-time must be a date-time with a zone from 1970 to before 9900, e.g. 2026-03-02T12:00:00Z; got "${opts.startTime}"`,
      );
  }
  const holidaysRegion = opts.holidaysRegion?.toUpperCase();
  if (holidaysRegion !== undefined && !BRAZILIAN_STATES.includes(holidaysRegion))
    fail(
      `--holidays-region must be a Brazilian state (${BRAZILIAN_STATES.join(', ')}); got "${opts.holidaysRegion}"`,
    );
  if (opts.seed === '') fail('--seed needs a value, e.g. --seed ci-1');
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
  const { logFor } = await import('../http/json-log.js');
  const log = logFor(tenancy.logFormat);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    // A broken file of --scenarios stops the start, not the first run. Without --scenarios only
    // the shipped files are read, and on first use: the test suite loads each of them
    // (engine/scenarios/load.test.ts), and parsing them was a fifth of the start's CPU.
    if (splitList(opts.scenarios).length > 0) {
      const { scenarioCatalog } = await import('../engine/scenarios/catalog.js');
      scenarioCatalog(splitList(opts.scenarios));
    }
    server = await startServer({
      port,
      host: opts.host ?? '127.0.0.1',
      dataFile: opts.data,
      journalLimitBytes,
      databaseUrl: opts.database,
      instanceUrl: opts.instanceUrl,
      leaseMs,
      forwardWaitMs,
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
      maxSnapshotBytesTotal,
      scenarioDirs: splitList(opts.scenarios),
      accessLog,
      log,
      partnerTtlSeconds: tenancy.partnerTtlSeconds,
      maxPartners: tenancy.maxPartners,
      idleUnloadMs: tenancy.idleUnloadMs,
      metrics: tenancy.metrics,
      metricsToken: tenancy.metricsToken,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `credit-sandbox: port ${port} on ${opts.host} is already in use (another sandbox?). Pick another with --port <n> (or PORT=<n>), or --port 0 for any free port.`,
      );
      process.exit(1);
    }
    if (
      (error as NodeJS.ErrnoException).code === 'EACCES' &&
      (error as NodeJS.ErrnoException).syscall === 'listen'
    ) {
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
    // The first write (the default partner) could not be saved: say why, without a stack trace.
    if ((error as Error).name === 'StorageUnavailableError') {
      console.error(
        `credit-sandbox: cannot start: ${(error as { reason: string }).reason}; --data needs a writable file with room to grow.`,
      );
      process.exit(1);
    }
    throw error;
  }
  // Signals are handled before the banner says it is up: a kill right after it stops it cleanly.
  stopOnSignals(server.close, log);
  printBanner(
    server,
    { opts, rateLimit, safety, tenancy, startTimeMs, holidaysRegion, credential },
    (line) => (tenancy.logFormat === 'json' ? log.info(line.trim()) : console.log(line)),
  );
}
