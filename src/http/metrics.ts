import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AttemptOutcome } from '../webhooks/delivery-service.js';
import { RequestMetrics } from './request-metrics.js';

/** What the gauges read when `/metrics` is scraped (never on the request path). */
export interface MetricsSources {
  /** Partners in this instance's memory. */
  residentPartners(): number;
  /** Live partners of the whole sandbox (shared mode: counted in the database). */
  totalPartners(): number | Promise<number>;
  /** Bytes the request inspector's log holds. */
  inspectorBytes(): number;
  /** Bytes of the snapshots held in memory (as JSON). */
  snapshotBytes(): number;
}

/** The store a flush wrote to (`credit_sandbox_flush_duration_seconds{store}`). */
export type FlushStore = 'journal' | 'postgres';

/** The route label of a request no route answered (404, 405): one label, never the path. */
export const UNMATCHED_ROUTE = 'unmatched';

// Process metrics (CPU, memory, event loop, GC) are the process's, not a sandbox's: one registry
// for however many sandboxes a process runs (tests start several).
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The sandbox's Prometheus metrics (prom-client's registry, default metrics and exposition).
 * Recording is cheap on the request path: one call per request, a few map lookups and additions
 * (see RequestMetrics). Label values are bounded: methods outside the usual seven count as
 * `OTHER`, routes are templates (or `unmatched`), statuses are what the app answers.
 */
export class SandboxMetrics {
  readonly registry = new Registry();
  private readonly requests: RequestMetrics;
  private readonly attempts: Counter<'outcome'>;
  private readonly flushes: Histogram<'store'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    // Started now, so the event loop's lag has samples by the first scrape.
    processMetrics();
    this.requests = new RequestMetrics(this.registry);
    this.attempts = new Counter({
      name: 'credit_sandbox_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (dropped: webhook chaos failed it without sending).',
      labelNames: ['outcome'],
      registers,
    });
    this.flushes = new Histogram({
      name: 'credit_sandbox_flush_duration_seconds',
      help: 'Time to make one change set durable (a journal append and fsync, or one PostgreSQL write).',
      labelNames: ['store'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    new Gauge({
      name: 'credit_sandbox_partners',
      help: "Partners: resident in this instance's memory, and total live partners of the sandbox.",
      labelNames: ['state'],
      registers,
      async collect() {
        this.set({ state: 'resident' }, sources.residentPartners());
        this.set({ state: 'total' }, await sources.totalPartners());
      },
    });
    new Gauge({
      name: 'credit_sandbox_bytes',
      help: "Bytes held in memory: the request inspector's log, and saved snapshots (as JSON).",
      labelNames: ['kind'],
      registers,
      collect() {
        this.set({ kind: 'inspector' }, sources.inspectorBytes());
        this.set({ kind: 'snapshots' }, sources.snapshotBytes());
      },
    });
  }

  /** One answered request; `route` is its template (`/v3/customers/{customer_id}`). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  observeAttempt(outcome: AttemptOutcome): void {
    this.attempts.inc({ outcome });
  }

  observeFlush(store: FlushStore, seconds: number): void {
    this.flushes.observe({ store }, seconds);
  }

  /** The exposition text: the process's metrics, then the sandbox's. */
  async text(): Promise<string> {
    const text = `${await processMetrics().metrics()}\n${await this.registry.metrics()}`;
    // prom-client writes a NaN sample (the event loop's mean before its first measure) as `Nan`;
    // the text format spells it `NaN`, and stricter parsers refuse anything else.
    return text.replace(/ Nan$/gm, ' NaN');
  }

  readonly contentType = this.registry.contentType;
}
