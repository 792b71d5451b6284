import type { Metric, Registry } from 'prom-client';

/** Upper bounds (seconds) of the request-duration histogram's buckets. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One method and route template: its answers by status, and its durations. */
interface Series {
  labels: { method: string; route: string };
  byStatus: Map<number, { count: number }>;
  /** Observations per bucket (not cumulative); the last slot is beyond the largest bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** A value of a metric as prom-client's registry writes it. */
interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/**
 * `credit_sandbox_http_requests_total{method,route,status}` and
 * `credit_sandbox_http_request_duration_seconds{method,route}`, recorded without building anything
 * per request: a request finds its series in two map lookups and its status counter in a third,
 * then adds to numbers (prom-client's own `observe` builds a label key and a closure per call,
 * about a microsecond of CPU). The registry reads the numbers when `/metrics` is scraped, through
 * the same `get()` its own metrics answer, and writes them in the text format.
 */
export class RequestMetrics {
  private readonly routes = new Map<string, Map<string, Series>>();

  constructor(registry: Registry) {
    const counter = {
      name: 'credit_sandbox_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({ ...counter, values: this.counterSamples() }),
    };
    const histogram = {
      name: 'credit_sandbox_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route template.',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({ ...histogram, values: this.histogramSamples(histogram.name) }),
    };
    // The registry writes any metric that answers `get()` as its own do.
    registry.registerMetric(counter as unknown as Metric);
    registry.registerMetric(histogram as unknown as Metric);
  }

  /** One answered request: its method, route template, status and duration in seconds. */
  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.routes.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.routes.set(route, byMethod);
    }
    let series = byMethod.get(method);
    if (!series) {
      // Methods outside the usual ones share one series: label values stay bounded.
      const label = METHODS.has(method) ? method : 'OTHER';
      series = byMethod.get(label) ?? newSeries(label, route);
      byMethod.set(label, series);
      byMethod.set(method, series);
    }
    let counter = series.byStatus.get(status);
    if (!counter) {
      counter = { count: 0 };
      series.byStatus.set(status, counter);
    }
    counter.count++;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) bucket++;
    (series.buckets as Float64Array)[bucket] = (series.buckets[bucket] as number) + 1;
    series.sum += seconds;
    series.count++;
  }

  private *series(): Iterable<Series> {
    const seen = new Set<Series>();
    for (const byMethod of this.routes.values()) {
      for (const series of byMethod.values()) {
        if (seen.has(series)) continue;
        seen.add(series);
        yield series;
      }
    }
  }

  private counterSamples(): Sample[] {
    const out: Sample[] = [];
    for (const series of this.series()) {
      for (const [status, { count }] of series.byStatus) {
        out.push({ value: count, labels: { ...series.labels, status: String(status) } });
      }
    }
    return out;
  }

  private histogramSamples(name: string): Sample[] {
    const out: Sample[] = [];
    for (const series of this.series()) {
      let cumulative = 0;
      for (let i = 0; i <= DURATION_BUCKETS.length; i++) {
        cumulative += series.buckets[i] as number;
        const le = i < DURATION_BUCKETS.length ? (DURATION_BUCKETS[i] as number) : '+Inf';
        out.push({ value: cumulative, labels: { le, ...series.labels }, metricName: `${name}_bucket` });
      }
      out.push({ value: series.sum, labels: series.labels, metricName: `${name}_sum` });
      out.push({ value: series.count, labels: series.labels, metricName: `${name}_count` });
    }
    return out;
  }
}

function newSeries(method: string, route: string): Series {
  return {
    labels: { method, route },
    byStatus: new Map(),
    buckets: new Float64Array(DURATION_BUCKETS.length + 1),
    sum: 0,
    count: 0,
  };
}
