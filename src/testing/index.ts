import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../domain/default-partner.js';
import { scenarioCatalog } from '../engine/scenarios/catalog.js';
import { startServer } from '../server.js';
import { SandboxApiError, ScenarioFailedError, sandboxClient } from './client.js';
import type { Sandbox, StartSandboxOptions } from './types.js';

export type * from './types.js';
export { SandboxApiError, ScenarioFailedError };

/**
 * Starts a whole sandbox inside the test process: in memory, on a free loopback port, the clock
 * frozen unless told otherwise, nothing printed. Resolves once it answers; `stop()` ends it.
 *
 * ```ts
 * const sandbox = await startSandbox({ seed: 'my-suite', startTime: '2026-03-02T12:00:00Z' });
 * const { captured } = await sandbox.runScenario('happy-path');
 * await sandbox.advance('35d');
 * await sandbox.stop();
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const scenarioDirs =
    options.scenarios === undefined
      ? []
      : Array.isArray(options.scenarios)
        ? options.scenarios
        : [options.scenarios];
  // A broken file of yours fails the start (naming file and step), not the first run. Without
  // extra directories the catalog loads on the first run: most of a cold start would be spent on it.
  if (scenarioDirs.length > 0) scenarioCatalog(scenarioDirs);
  const credential = {
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
  };
  const server = await startServer({
    port: 0,
    host: options.host ?? '127.0.0.1',
    clockMode: options.clock ?? 'frozen',
    webhookHttpHosts: options.webhookHttpHosts ?? [],
    rateLimit: options.rateLimit ?? 0,
    seed: options.seed,
    startTimeMs: startTimeMs(options.startTime),
    scenarioDirs,
    credential,
    snapshotFile: options.snapshot,
    accessLog: 'off',
    log: {
      info: () => {},
      error: (message, error) => console.error(`credit-sandbox: ${message}`, error ?? ''),
    },
  });
  const client = sandboxClient(`${server.url}/v3`, credential.clientId, credential.clientSecret);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= server.close();
    return stopped;
  };
  return { ...client, url: server.url, stop };
}

function startTimeMs(start: StartSandboxOptions['startTime']): number | undefined {
  if (start === undefined) return undefined;
  const ms = start instanceof Date ? start.getTime() : Date.parse(start);
  if (Number.isNaN(ms)) {
    throw new TypeError(
      `startTime must be a Date or a date-time such as 2026-03-02T12:00:00Z; got ${String(start)}`,
    );
  }
  return ms;
}
