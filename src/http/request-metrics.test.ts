import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestMetrics } from './request-metrics.js';

describe('request metrics', () => {
  it('counts by method, route and status, and buckets durations cumulatively (le: at most)', async () => {
    const registry = new Registry();
    const metrics = new RequestMetrics(registry);
    metrics.observe('GET', '/v3/customers/{customer_id}', 200, 0.001);
    metrics.observe('GET', '/v3/customers/{customer_id}', 200, 0.0011);
    metrics.observe('GET', '/v3/customers/{customer_id}', 404, 20);
    metrics.observe('PROPFIND', 'unmatched', 405, 0.002);
    metrics.observe('MKCOL', 'unmatched', 405, 0.002);
    const text = await registry.metrics();
    const lines = (prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));
    expect(lines('credit_sandbox_http_requests_total{')).toEqual([
      'credit_sandbox_http_requests_total{method="GET",route="/v3/customers/{customer_id}",status="200"} 2',
      'credit_sandbox_http_requests_total{method="GET",route="/v3/customers/{customer_id}",status="404"} 1',
      'credit_sandbox_http_requests_total{method="OTHER",route="unmatched",status="405"} 2',
    ]);
    const name = 'credit_sandbox_http_request_duration_seconds';
    const get = lines(`${name}_bucket{`).filter((l) => l.includes('method="GET"'));
    expect(get[0]).toBe(`${name}_bucket{le="0.001",method="GET",route="/v3/customers/{customer_id}"} 1`);
    expect(get[1]).toBe(`${name}_bucket{le="0.0025",method="GET",route="/v3/customers/{customer_id}"} 2`);
    expect(get.at(-2)).toBe(`${name}_bucket{le="10",method="GET",route="/v3/customers/{customer_id}"} 2`);
    expect(get.at(-1)).toBe(`${name}_bucket{le="+Inf",method="GET",route="/v3/customers/{customer_id}"} 3`);
    expect(lines(`${name}_count{`)).toEqual([
      `${name}_count{method="GET",route="/v3/customers/{customer_id}"} 3`,
      `${name}_count{method="OTHER",route="unmatched"} 2`,
    ]);
    expect(text).toContain(`# TYPE ${name} histogram`);
  });
});
