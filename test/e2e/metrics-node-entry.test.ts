import { afterEach, describe, expect, it, vi } from 'vitest';
import { Entries } from '../../src/http/pipeline/entries.js';
import type { RunningServer } from '../../src/server.js';
import { partnerClient } from '../support/partner-client.js';
import { startQuietServer } from '../support/test-server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

describe('metrics and the request path', () => {
  it("leave a plain /v3 request to Node's entry, which counts it (app.fetch's count does not take it over)", async () => {
    const node = vi.spyOn(Entries.prototype, 'node');
    server = await startQuietServer();
    const base = server.url;
    const api = partnerClient((path, init) => fetch(`${base}${path}`, init));
    const read = await api.request('GET', '/v3/sandbox/clock');
    expect(read.status).toBe(200);
    // Every call of Node's entry for this server answered the request itself.
    expect(node.mock.results.length).toBeGreaterThan(0);
    expect(node.mock.results.map((r) => r.value)).not.toContain(false);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(
      /credit_sandbox_http_requests_total\{method="GET",route="\/v3\/sandbox\/clock",status="200"\} 1\n/,
    );
    expect(text).toMatch(
      /credit_sandbox_http_requests_total\{method="POST",route="\/v3\/auth\/token",status="200"\} 1\n/,
    );
  });
});
