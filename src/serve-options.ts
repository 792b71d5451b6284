import type { DefaultCredential } from './domain/default-partner.js';
import type { Timings } from './engine/timings.js';
import type { AccessLogFormat } from './http/access-log.js';
import type { AppConfig, HostedSafety, Logger } from './http/deps.js';

/** What `startServer` takes: the `serve` command's options, parsed (see cli/serve-options.ts). */
export interface ServeOptions {
  port: number;
  host: string;
  /** JSON file to persist to; in-memory when absent. */
  dataFile?: string | undefined;
  /** With `dataFile`: compact the journal once it holds this many bytes (default 16 MiB). */
  journalLimitBytes?: number | undefined;
  /** PostgreSQL connection URL (shared mode); takes the place of `dataFile`. */
  databaseUrl?: string | undefined;
  /** Shared mode: the URL other instances forward requests to (default: the listening address). */
  instanceUrl?: string | undefined;
  /** Hosted safety (`--hosted-safety`, `--partner-signup`, quotas); all off when absent. */
  safety?: HostedSafety | undefined;
  /** Shared mode: how long a partner lease lasts without renewal (default 5 s). */
  leaseMs?: number | undefined;
  /** Shared mode: how long a request waits for a dead owner's partner to be taken over (20 s). */
  forwardWaitMs?: number | undefined;
  /** Absolute URL partners reach the sandbox at; derived from host and port when absent. */
  publicUrl?: string | undefined;
  clockMode: AppConfig['clockMode'];
  webhookHttpHosts: string[];
  /** Milliseconds a webhook receiver has to answer; defaults to 10 s. */
  webhookTimeoutMs?: number | undefined;
  /** Automatic delays; DESIGN's defaults when absent. */
  timings?: Timings | undefined;
  /** Requests kept per partner by the request inspector (default 1000; 0 keeps none). */
  requestLogSize?: number | undefined;
  /** Directories of the team's own scenario files (`--scenarios`). */
  scenarioDirs?: string[] | undefined;
  rateLimit: number;
  /** Makes every generated value reproducible (`--seed`); random when absent. */
  seed?: string | undefined;
  /** Where partner clocks start, ms since the epoch (`--start-time`); real time when absent. */
  startTimeMs?: number | undefined;
  /** A Brazilian state whose holidays join the banking calendar (`--holidays-region`). */
  holidaysRegion?: string | undefined;
  /** Milliseconds a client has to send complete request headers (`--headers-timeout`, 5 s). */
  headersTimeoutMs?: number | undefined;
  /** Milliseconds a client has to send a whole request, body included (`--request-timeout`, 10 s). */
  requestTimeoutMs?: number | undefined;
  /** Keep-alive timeout advertised to clients (5 s); idle connections really close a minute later. */
  keepAliveTimeoutMs?: number | undefined;
  /** Shared by several people or partners (`--hosted`): turns the per-client connection cap on. */
  hosted?: boolean | undefined;
  /** Open connections one client address may hold in hosted mode (`--max-connections-per-client`, 32). */
  maxConnectionsPerClient?: number | undefined;
  credential: DefaultCredential;
  /** An exported snapshot loaded into the default partner at start (`--snapshot`). */
  snapshotFile?: string | undefined;
  /** Snapshot bytes the instance keeps for all partners (`--max-snapshot-bytes-total`; 128 MiB). */
  maxSnapshotBytesTotal?: number | undefined;
  log?: Logger;
  /** One console line per request (`--log`); off when absent. */
  accessLog?: AccessLogFormat | undefined;
  /** Where the access log's text goes (one write per event-loop turn); stdout when absent. */
  accessLogWrite?: ((text: string) => void) | undefined;
  /** Lifetime in seconds of partners created through the API without `expires_in` (`--partner-ttl`). */
  partnerTtlSeconds?: number | undefined;
  /** Live partners the sandbox holds at most (`--max-partners`); unbounded when absent. */
  maxPartners?: number | undefined;
  /** Shared mode: a partner without a request for this long leaves memory (`--idle-unload`). */
  idleUnloadMs?: number | undefined;
  /** `GET /metrics` (`--metrics`, on by default). */
  metrics?: boolean | undefined;
  /** A bearer token `GET /metrics` requires (`--metrics-token`); see docs/scaling.md. */
  metricsToken?: string | undefined;
  /** Real time, ms since the epoch (tests move it); `Date.now` when absent. */
  realNow?: (() => number) | undefined;
}
