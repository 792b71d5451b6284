import type { MiddlewareHandler } from 'hono';
import type { Engine } from '../engine/engine.js';
import { DEFAULT_TIMINGS, type Timings } from '../engine/timings.js';
import type { IdSource, RandomBytes } from '../lib/ids.js';
import type { RandomStreams } from '../lib/random-streams.js';
import type { Persistence } from '../store/persistence.js';
import type { PartnerRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { WebhookDelivery } from '../webhooks/delivery-service.js';
import type { AppEnv } from './env.js';
import type { SandboxMetrics } from './metrics.js';
import type { MetricsAccess } from './metrics-route.js';

/** Server-wide settings that change behaviour (flags and environment). */
export interface AppConfig {
  /** Base for absolute URLs a person or another system follows (hosted pages, problem types). */
  publicUrl: string;
  /** Hosts besides loopback that webhook endpoints may reach over plain http. */
  webhookHttpHosts: string[];
  /**
   * Hosted safety (on in shared mode and with --hosted): webhook urls must be https and reach
   * public addresses only, checked at registration and again at each connection.
   */
  webhookPublicOnly?: boolean;
  /** Whether `POST /v3/sandbox/partners` creates partners (`--partner-signup`, on by default). */
  partnerSignup?: boolean;
  /** Lifetime in seconds of partners created through the API without `expires_in` (`--partner-ttl`). */
  partnerTtlSeconds?: number | undefined;
  /** Live partners the sandbox holds at most (`--max-partners`); unbounded when absent. */
  maxPartners?: number | undefined;
  /** Hosted safety: per-partner limits (requests per second are `rateLimit`). Absent: none. */
  quotas?: PartnerQuotas | undefined;
  /** Requests per second per partner; 0 disables rate limiting. */
  rateLimit: number;
  /** How new partners' clocks start. */
  clockMode: 'running' | 'frozen';
  /** A webhook attempt without a complete 2xx answer within this many ms failed. */
  webhookTimeoutMs: number;
  /** Automatic delays of the partner worlds (`--timings`). */
  timings: Timings;
  /** Directories of a team's own scenario files, served beside the shipped ones (`--scenarios`). */
  scenarioDirs?: string[];
  /** Requests kept per partner by the request inspector; 0 keeps none (`--request-log-size`). */
  requestLogSize?: number;
  /** Where new (and reset) partner clocks start, ms since the epoch (`--start-time`); real time when absent. */
  startTimeMs?: number | undefined;
  /** A Brazilian state whose holidays join the national banking calendar (`--holidays-region`). */
  holidaysRegion?: string | null | undefined;
  /** Snapshot bytes (as JSON) the instance keeps for all partners together (`--max-snapshot-bytes-total`). */
  maxSnapshotBytesTotal?: number | undefined;
}

export interface PartnerQuotas {
  /** Customers one partner may hold; creating more answers 422 `quota_exceeded`. */
  customers: number;
  /** Events kept per partner; the oldest are dropped beyond it. */
  eventsKept: number;
}

/** What hosted safety turns on (`--hosted-safety`, `--partner-signup`, `--quota-*`). */
export interface HostedSafety {
  webhookPublicOnly: boolean;
  partnerSignup: boolean;
  quotas: PartnerQuotas | undefined;
}

/** What a log line is about: the request (its `Request-Id`) or the partner. */
export interface LogContext {
  request_id?: string | undefined;
  partner_id?: string | undefined;
}

export interface Logger {
  info(message: string, context?: LogContext): void;
  error(message: string, error?: unknown, context?: LogContext): void;
}

/** Everything the app needs, built once and passed in (real implementations by default in `server.ts`). */
export interface AppDeps {
  store: Store;
  persistence: Persistence;
  ids: IdSource;
  randomBytes: RandomBytes;
  /** The server's and each partner's random streams (seeded with `--seed`). */
  streams: RandomStreams;
  /** Real wall-clock milliseconds; partner clocks are derived from it. */
  realNow: () => number;
  config: AppConfig;
  log: Logger;
  /** Partner clocks, event log and scheduler. */
  engine: Engine;
  /** Ids of API requests (`Request-Id`): a stream of their own under `--seed`. */
  requestIds?: IdSource;
  /** Outgoing webhook delivery (`idle()` lets tests wait for deliveries in flight). */
  webhooks: WebhookDelivery;
  /**
   * Measures rows for the next snapshot save in turns that follow spare time (absent when off);
   * `whenDrained()` lets tests wait for it.
   */
  rowSizer?: { whenDrained(): Promise<void> };
  /**
   * Shared mode only: runs first on every request and serves it here, or forwards it to the
   * instance that owns its partner (`src/cluster/`). Absent in a single process.
   */
  clusterGate?: MiddlewareHandler<AppEnv>;
  /**
   * Shared mode only: the partners a partner created, read from the database (they live on
   * whichever instance owns each, not necessarily in this one's memory).
   */
  partnerDirectory?: PartnerDirectory;
  /** `GET /metrics` and what it counts (`--metrics`, on by default in a server; absent in tests). */
  metrics?: { recorder: SandboxMetrics; access: MetricsAccess } | undefined;
}

/**
 * Shared mode's view of every partner of the sandbox, wherever it lives (read from the database),
 * for the partner routes: a partner may be held by another instance, or by none.
 */
export interface PartnerDirectory {
  /** The partners a partner created. */
  createdBy(partnerId: string): Promise<PartnerRecord[]>;
  /** A partner's row, wherever it lives. */
  get(partnerId: string): Promise<PartnerRecord | undefined>;
  /** How many partners the sandbox holds. */
  count(): Promise<number>;
  /**
   * Brings the partner into this instance's memory when no other live instance holds it (and
   * answers undefined), or answers the request as the instance holding it does, sent there on the
   * partner's own behalf (the caller was checked here: the partner itself or its creator).
   */
  bring(partnerId: string, request: Request, body?: string): Promise<Response | undefined>;
}

export const DEFAULT_CONFIG: AppConfig = {
  publicUrl: 'http://localhost:8080',
  webhookHttpHosts: [],
  rateLimit: 100,
  clockMode: 'running',
  webhookTimeoutMs: 10_000,
  timings: DEFAULT_TIMINGS,
};
