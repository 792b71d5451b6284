import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { tempDataFile } from '../../src/store/journal/test-helpers.js';
import { CPF } from '../support/customers.js';
import type { PartnerClient } from '../support/partner-client.js';
import { expectStillServing, httpClient, logged, type Serving, serving } from '../support/serving.js';
import {
  plantEndOfTimeClock,
  plantMissingClock,
  plantThrowingCustomer,
  plantUnsignableEndpoint,
  plantUnwritableRow,
} from '../support/throwing-rows.js';
import { startReceiver } from '../support/webhook-receiver.js';

// Nothing a request does ends the process: each entry point meets a row or a handler that throws,
// answers (a 500 problem with the request id) or logs it, and the server goes on serving.

interface Problem {
  code: string;
  status: number;
  instance: string;
}

describe('every entry point survives what it runs throwing', () => {
  it("the request path (Node's entry, its second read with a cached token too): a customer whose view throws answers 500 with the request id, every time", async () => {
    const server = await serving();
    const id = plantThrowingCustomer(server.deps.store, DEFAULT_PARTNER_ID);
    // The second read of the same customer finds its token in the cache: the cheapest path there is.
    for (let i = 0; i < 3; i++) {
      const res = await server.api.json<Problem>('GET', `/v3/customers/${id}`);
      expect([res.status, res.body.code]).toEqual([500, 'internal_error']);
      expect(res.body.instance).toMatch(new RegExp(`^/v3/customers/${id}#req_[0-9a-f]{32}$`));
      expect(res.headers.get('request-id')).toBe(res.body.instance.split('#')[1]);
    }
    expect(server.logs.some((line) => /unexpected error while handling a request/.test(line))).toBe(true);
    await expectStillServing(server);
  });

  it("the clock's read: a clock no date can show answers 500, every time", async () => {
    const server = await serving();
    const partner = await otherPartner(server);
    // The last millisecond a date can show: a token taken now is valid past it.
    plantEndOfTimeClock(server.deps.store, partner.id, 8.64e15 - 1000);
    expect((await partner.api.json('GET', '/v3/sandbox/clock')).status).toBe(200);
    plantEndOfTimeClock(server.deps.store, partner.id);
    for (let i = 0; i < 3; i++) {
      const res = await partner.api.json<Problem>('GET', '/v3/sandbox/clock');
      expect(res.status).toBe(500);
    }
    await expectStillServing(server);
  });

  it('the error handler itself: when even logging the error fails, the answer is a 500 problem with the request id', async () => {
    let failures = 0;
    const server = await serving({
      log: {
        info: () => {},
        error: () => {
          failures++;
          throw new Error('the log is gone');
        },
      },
    });
    const id = plantThrowingCustomer(server.deps.store, DEFAULT_PARTNER_ID);
    const res = await server.api.json<Problem>('GET', `/v3/customers/${id}`);
    expect([res.status, res.body.code]).toEqual([500, 'internal_error']);
    expect(res.body.instance).toMatch(/#req_[0-9a-f]{32}$/);
    expect(failures).toBeGreaterThan(0);
    await expectStillServing(server);
  });

  it("timed jobs: a partner whose clock cannot be read when its job's timer fires is logged, not fatal", async () => {
    const server = await serving();
    const engine = server.deps.engine;
    const partnerId = (await otherPartner(server)).id;
    engine.scheduler.schedule(
      partnerId,
      'webhook.attempt',
      { delivery_id: 'dlv_none' },
      engine.clock(partnerId).nowMs(),
    );
    // Before the timer (armed for now) fires, the partner's clock becomes unreadable.
    plantMissingClock(server.deps.store, partnerId);
    await logged(server.logs, new RegExp(`timed jobs of partner ${partnerId} could not run`));
    await expectStillServing(server);
  });

  it('timed jobs: a job whose handler throws is logged and the partner world goes on', async () => {
    const server = await serving();
    const engine = server.deps.engine;
    engine.scheduler.schedule(
      DEFAULT_PARTNER_ID,
      'no.such.kind',
      {},
      engine.clock(DEFAULT_PARTNER_ID).nowMs(),
    );
    await logged(server.logs, /job no\.such\.kind .* failed/);
    await expectStillServing(server);
  });

  it('webhook sends: an attempt whose signing throws is a failed attempt, retried on the schedule', async () => {
    const receiver = await startReceiver();
    const server = await serving({ webhookHttpHosts: [] });
    try {
      const endpoint = await server.api.json<{ id: string }>('POST', '/v3/webhooks/endpoints', {
        body: { url: receiver.url, events: ['customer.created'] },
      });
      expect(endpoint.status).toBe(201);
      plantUnsignableEndpoint(server.deps.store, endpoint.body.id);
      const created = await server.api.json('POST', '/v3/customers', {
        body: { cpf: CPF.plain, name: 'Ana' },
      });
      expect(created.status).toBe(201);
      await logged(server.logs, /webhook attempt 1 of dlv_\w+ not sent/);
      await server.deps.webhooks.idle();
      const [delivery] = [...server.deps.store.deliveries.values()];
      expect(delivery).toMatchObject({ status: 'pending', attempts: [{ status_code: null }] });
      expect(delivery?.attempts[0]?.error).toMatch(/could not send this attempt/);
      expect(receiver.received).toHaveLength(0);
      await expectStillServing(server);
    } finally {
      await receiver.close();
    }
  });

  it('SSE streams: a dashboard event that cannot be shown is logged and the stream goes on', async () => {
    const server = await serving();
    const cookie = await dashboardCookie(server.url);
    const stream = await fetch(`${server.url}/dashboard/events/stream`, { headers: { cookie } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the retry line: the stream listens from here
    const engine = server.deps.engine;
    const clock = engine.clock(DEFAULT_PARTNER_ID);
    engine.emit(DEFAULT_PARTNER_ID, clock, 'customer.created', null as never);
    await logged(server.logs, /dashboard event .* could not be shown/);
    const shown = await server.api.json('POST', '/v3/customers', { body: { cpf: CPF.other, name: 'Bia' } });
    expect(shown.status).toBe(201);
    let text = '';
    while (!text.includes('customer.created')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).toContain('event: event');
    await reader.cancel();
    await expectStillServing(server);
  });

  it('the journal flush of a request: a row it cannot write answers 500, is rolled back, and the next write works', async () => {
    const dataFile = tempDataFile();
    const server = await serving({ dataFile });
    expect((await server.api.json('GET', '/v3/customers')).status).toBe(200);
    plantUnwritableRow(server.deps.store, DEFAULT_PARTNER_ID);
    const refused = await server.api.json<Problem>('POST', '/v3/customers', {
      body: { cpf: CPF.plain, name: 'Lost' },
    });
    expect([refused.status, refused.body.code]).toEqual([500, 'internal_error']);
    expect(server.deps.store.randomCounters.get('unwritable')).toBeUndefined();
    const list = await server.api.json<{ data: unknown[] }>('GET', '/v3/customers');
    expect(list.body.data).toEqual([]);
    const next = await server.api.json('POST', '/v3/customers', { body: { cpf: CPF.plain, name: 'Kept' } });
    expect(next.status).toBe(201);
    await expectStillServing(server);
    expect(readFileSync(`${dataFile}.journal`, 'utf8')).toContain('Kept');
  });

  it('the request log flush (a background timer): a row it cannot write is logged, not fatal', async () => {
    const server = await serving({ dataFile: tempDataFile() });
    expect((await server.api.json('GET', '/v3/sandbox/clock')).status).toBe(200);
    plantUnwritableRow(server.deps.store, DEFAULT_PARTNER_ID);
    // A read writes nothing but its log entry, persisted by the flush timer a second later.
    expect((await server.api.json('GET', '/v3/sandbox/clock')).status).toBe(200);
    await logged(server.logs, /persisting the request log failed: Do not know how to serialize a BigInt/);
    await expectStillServing(server);
  });

  it('measuring rows while idle: a row nested too deep for JSON is skipped, not fatal', async () => {
    const server = await serving();
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const id = plantThrowingCustomer(server.deps.store, DEFAULT_PARTNER_ID, 'cust_deep');
    server.deps.store.customers.update(id, (row) => ({ ...row, kyc: [], trading_name: deep as string }));
    await new Promise((resolve) => setImmediate(resolve)); // the drain runs
    await new Promise((resolve) => setImmediate(resolve));
    await expectStillServing(server);
  });

  it('shutdown: a last flush that fails is reported and the server still closes', async () => {
    const server = await serving({ dataFile: tempDataFile() });
    plantUnwritableRow(server.deps.store, DEFAULT_PARTNER_ID);
    await expect(server.close()).rejects.toThrow(/last flush failed.*serialize a BigInt/);
    expect(server.logs.some((line) => /last flush failed; not saved/.test(line))).toBe(true);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});

/** A partner of its own (the row a test breaks is not the default partner's, whose token the checks use). */
async function otherPartner(server: Serving): Promise<{ id: string; api: PartnerClient }> {
  const created = await server.api.json<{ id: string; client_id: string; client_secret: string }>(
    'POST',
    '/v3/sandbox/partners',
    { body: { name: 'broken' } },
  );
  expect(created.status).toBe(201);
  return {
    id: created.body.id,
    api: httpClient(server.url, created.body.client_id, created.body.client_secret),
  };
}

/** Signs in to the dashboard with the default credential; the session cookie. */
async function dashboardCookie(url: string): Promise<string> {
  const form = await fetch(`${url}/dashboard/sign-in`);
  const nonce = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: nonce, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: csrf,
      client_id: 'cid_sandbox_default',
      client_secret: 'svc_cs_test_sandbox_default_secret',
    }).toString(),
  });
  return (res.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_session=')) ?? '').split(
    ';',
  )[0] as string;
}
