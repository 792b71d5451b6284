import { HonoRequest } from 'hono/request';
import { describe, expect, it } from 'vitest';
import { FetchRequestFacts } from './request-facts.js';

describe('FetchRequestFacts', () => {
  it("reads a body already read through Hono's body cache (shared mode's forwarding reads it first)", async () => {
    const raw = new Request('http://sandbox.test/v3/auth/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"after the takeover"}',
    });
    const hono = new HonoRequest(raw, '/v3/auth/credentials');
    // What the cluster gate does before it finds the partner is owned here after all.
    await hono.arrayBuffer();
    const facts = new FetchRequestFacts(raw, '/v3/auth/credentials', hono.bodyCache);
    expect(new TextDecoder().decode(await facts.bytes())).toBe('{"name":"after the takeover"}');
  });

  it('reads the body from the request when nothing read it before', async () => {
    const raw = new Request('http://sandbox.test/v3/customers', { method: 'POST', body: 'x'.repeat(10) });
    const facts = new FetchRequestFacts(raw, '/v3/customers', {});
    expect((await facts.bytes()).byteLength).toBe(10);
  });
});
