import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { CPF } from '../support/customers.js';
import { partnerClient } from '../support/partner-client.js';
import { startQuietServer } from '../support/test-server.js';
import { startReceiver } from '../support/webhook-receiver.js';

interface Scrape {
  text: string;
  families: PrometheusFamily[];
}

/**
 * Scrapes `/metrics` and parses it with a Prometheus text-format parser (which throws on any line
 * that is not valid text format). The parser keeps the labels of counters and gauges; it folds the
 * series of a labelled histogram together, so those are read from their exact `_count` lines.
 */
async function scrape(server: RunningServer, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(`${server.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, families: parsePrometheusTextFormat(text) };
}

function family({ families }: Scrape, name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric ${name} in ${families.map((f) => f.name).join(', ')}`);
  return found;
}

function value(f: PrometheusFamily, labels: Record<string, string>): number | undefined {
  const sample = f.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return sample?.value === undefined ? undefined : Number(sample.value);
}

/** A histogram series' count, from its `_count` line (labels in the order prom-client writes them). */
function histogramCount(scrape: Scrape, name: string, labels: string): number | undefined {
  const line = scrape.text.split('\n').find((l) => l.startsWith(`${name}_count{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  it('serves every metric in Prometheus text format, with route templates for labels', async () => {
    const receiver = await startReceiver();
    const dataFile = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-metrics-')), 'data.json');
    const server = await startQuietServer({ dataFile });
    try {
      const api = partnerClient((path, init) => fetch(`${server.url}${path}`, init));
      await api.json('POST', '/v3/webhooks/endpoints', { body: { url: receiver.url } });
      const customer = await api.json<{ id: string }>('POST', '/v3/customers', {
        body: { cpf: CPF.plain, name: 'Maria da Silva', email: 'maria@example.com', phone: '+5511987654321' },
      });
      expect(customer.status).toBe(201);
      for (const id of [customer.body.id, customer.body.id, 'cust_00000000000000000000000000000000']) {
        await api.request('GET', `/v3/customers/${id}`);
      }
      await api.request('GET', '/v3/no-such-route/cust_123');
      await server.deps.webhooks.idle();

      const metrics = await scrape(server);
      // Node's and the process's own metrics.
      for (const name of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_seconds',
      ]) {
        expect(family(metrics, name).metrics.length).toBeGreaterThan(0);
      }

      const requests = family(metrics, 'credit_sandbox_http_requests_total');
      expect(requests.type).toBe('COUNTER');
      const route = '/v3/customers/{customer_id}';
      expect(value(requests, { method: 'GET', route, status: '200' })).toBe(2);
      expect(value(requests, { method: 'GET', route, status: '404' })).toBe(1);
      expect(value(requests, { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
      expect(value(requests, { method: 'POST', route: '/v3/customers', status: '201' })).toBe(1);
      expect(value(requests, { method: 'POST', route: '/v3/auth/token', status: '200' })).toBeGreaterThan(0);
      // Templates, never ids: no label value names a customer.
      for (const sample of requests.metrics) expect(JSON.stringify(sample.labels)).not.toMatch(/cust_/);
      expect(metrics.text).not.toMatch(/cust_[0-9a-f]/);

      const duration = 'credit_sandbox_http_request_duration_seconds';
      expect(family(metrics, duration).type).toBe('HISTOGRAM');
      expect(histogramCount(metrics, duration, `method="GET",route="${route}"`)).toBe(3);
      expect(metrics.text).toContain(`${duration}_bucket{le="+Inf",method="GET",route="${route}"} 3`);

      const partners = family(metrics, 'credit_sandbox_partners');
      expect(partners.type).toBe('GAUGE');
      expect(value(partners, { state: 'resident' })).toBe(1);
      expect(value(partners, { state: 'total' })).toBe(1);

      const attempts = family(metrics, 'credit_sandbox_webhook_attempts_total');
      expect(receiver.received.length).toBeGreaterThan(0);
      expect(value(attempts, { outcome: 'succeeded' })).toBe(receiver.received.length);

      const flushes = 'credit_sandbox_flush_duration_seconds';
      expect(family(metrics, flushes).type).toBe('HISTOGRAM');
      expect(histogramCount(metrics, flushes, 'store="journal"')).toBeGreaterThan(0);

      const bytes = family(metrics, 'credit_sandbox_bytes');
      expect(value(bytes, { kind: 'inspector' })).toBeGreaterThan(0);
      expect(value(bytes, { kind: 'snapshots' })).toBe(0);
    } finally {
      await server.close();
      await receiver.close();
    }
  });

  it('is off with --metrics off, needs the token when one is set, and a token when hosted', async () => {
    const off = await startQuietServer({ metrics: false });
    const token = 'metrics-token-0123456789';
    const guarded = await startQuietServer({ metricsToken: token });
    const hosted = await startQuietServer({ hosted: true });
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
      const refused = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer wrong' } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(
        family(await scrape(guarded, { authorization: `Bearer ${token}` }), 'credit_sandbox_partners'),
      ).toBeDefined();
      const unguarded = await fetch(`${hosted.url}/metrics`);
      expect(unguarded.status).toBe(403);
      expect(await unguarded.text()).toMatch(/--metrics-token/);
    } finally {
      await Promise.all([off.close(), guarded.close(), hosted.close()]);
    }
  });
});
