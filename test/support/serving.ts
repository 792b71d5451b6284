import { expect, onTestFinished } from 'vitest';
import type { ServeOptions } from '../../src/server.js';
import { CPF } from './customers.js';
import { type PartnerClient, partnerClient } from './partner-client.js';
import { startQuietServer } from './test-server.js';
import { WAIT_LIMIT_MS } from './time-limits.js';

export interface Serving {
  url: string;
  deps: Awaited<ReturnType<typeof startQuietServer>>['deps'];
  /** Every line the server logged; errors as `error: <message>: <error message>`. */
  logs: string[];
  /** The default partner's client over HTTP. */
  api: PartnerClient;
  /**
   * Exceptions and rejections nothing caught while the test ran (each would end a real server's
   * process; the test runner only reports them).
   */
  escaped: unknown[];
  close(): Promise<void>;
}

/** A real server (sockets, the request path's Node entry, timers) whose log the test reads; closed when the test ends. */
export async function serving(options: Partial<ServeOptions> = {}): Promise<Serving> {
  const logs: string[] = [];
  const running = await startQuietServer({
    log: {
      info: (message) => logs.push(message),
      error: (message, error) =>
        logs.push(`error: ${message}${error === undefined ? '' : `: ${(error as Error)?.message ?? error}`}`),
    },
    ...options,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await running.close();
  };
  const escaped: unknown[] = [];
  const noteEscaped = (error: unknown) => escaped.push(error);
  process.on('uncaughtExceptionMonitor', noteEscaped);
  process.on('unhandledRejection', noteEscaped);
  onTestFinished(async () => {
    await close().catch(() => {});
    process.off('uncaughtExceptionMonitor', noteEscaped);
    process.off('unhandledRejection', noteEscaped);
  });
  const url = running.url;
  return { url, deps: running.deps, logs, api: httpClient(url), escaped, close };
}

/** A partner's client over HTTP (the default partner's unless a credential is given). */
export function httpClient(url: string, clientId?: string, clientSecret?: string): PartnerClient {
  return partnerClient((path, init) => fetch(`${url}${path}`, init), clientId, clientSecret);
}

/**
 * The process still serves: nothing escaped every catch (which would have ended it), `/healthz`
 * answers 200, and a partner created now can write and read (the check every entry-point test
 * ends with, after something threw).
 */
export async function expectStillServing(server: Serving): Promise<void> {
  const url = server.url;
  expect(server.escaped).toEqual([]);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const created = await httpClient(url).json<{ client_id: string; client_secret: string }>(
    'POST',
    '/v3/sandbox/partners',
    { body: { name: 'still serving' } },
  );
  expect(created.status).toBe(201);
  const other = httpClient(url, created.body.client_id, created.body.client_secret);
  expect((await other.json('POST', '/v3/customers', { body: { cpf: CPF.plain, name: 'Next' } })).status).toBe(
    201,
  );
  expect((await other.json<{ data: unknown[] }>('GET', '/v3/customers')).body.data).toHaveLength(1);
  expect(server.escaped).toEqual([]);
}

/** Waits (turns of the event loop and short timers; a hang after `timeoutMs`) until the server logged a line. */
export async function logged(logs: string[], pattern: RegExp, timeoutMs = WAIT_LIMIT_MS): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const line = logs.find((l) => pattern.test(l));
    if (line) return line;
    if (performance.now() > deadline)
      throw new Error(`nothing logged matching ${pattern}:\n${logs.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
