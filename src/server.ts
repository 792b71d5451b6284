import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createApp, MAX_BODY_BYTES, nodeEntryOf } from './app.js';
import type { SharedMode } from './cluster/shared-mode.js';
import { createDeps } from './deps.js';
import { type DefaultCredential, ensureDefaultPartner } from './domain/default-partner.js';
import type { Timings } from './engine/timings.js';
import { AccessLog, type AccessLogFormat } from './http/access-log.js';
import {
  type ConnectionCap,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  limitConnectionsPerClient,
  slowClientServerOptions,
} from './http/connection-limits.js';
import { type AppConfig, type AppDeps, DEFAULT_CONFIG, type HostedSafety, type Logger } from './http/deps.js';
import { hasBody, honestConnections } from './http/early-answers.js';
import type { AppEnv } from './http/env.js';
import { guardListener } from './http/node-guard.js';
import { answerSlowClientsAsProblems } from './http/slow-client-answer.js';
import { DEFAULT_REQUEST_LOG_SIZE } from './inspector/request-log.js';
import { counterIds, cryptoRandomBytes, randomIds } from './lib/ids.js';
import { seededKey, seededStreams, unseededStreams } from './lib/random-streams.js';
import { redactJsonText } from './lib/redact.js';
import { closeServer } from './server-shutdown.js';
import { loadStartSnapshot } from './start-snapshot.js';
import { openPersistence } from './store/open-persistence.js';
import { Store } from './store/store.js';

export interface ServeOptions {
  port: number;
  host: string;
  /** JSON file to persist to; in-memory when absent. */
  dataFile?: string | undefined;
  /** With `dataFile`: compact the journal once it holds this many bytes (default 16 MiB). */
  journalLimitBytes?: number | undefined;
  /** PostgreSQL connection URL (shared mode); takes the place of `dataFile`. */
  databaseUrl?: string | undefined;
  /** Shared mode: the URL other instances forward requests to (default: the listening address). */
  instanceUrl?: string | undefined;
  /** Hosted safety (`--hosted-safety`, `--partner-signup`, quotas); all off when absent. */
  safety?: HostedSafety | undefined;
  /** Shared mode: how long a partner lease lasts without renewal (default 5 s). */
  leaseMs?: number | undefined;
  /** Shared mode: how long a request waits for a dead owner's partner to be taken over (20 s). */
  forwardWaitMs?: number | undefined;
  /** Absolute URL partners reach the sandbox at; derived from host and port when absent. */
  publicUrl?: string | undefined;
  clockMode: AppConfig['clockMode'];
  webhookHttpHosts: string[];
  /** Milliseconds a webhook receiver has to answer; defaults to 10 s. */
  webhookTimeoutMs?: number | undefined;
  /** Automatic delays; DESIGN's defaults when absent. */
  timings?: Timings | undefined;
  /** Requests kept per partner by the request inspector (default 1000; 0 keeps none). */
  requestLogSize?: number | undefined;
  /** Directories of the team's own scenario files (`--scenarios`). */
  scenarioDirs?: string[] | undefined;
  rateLimit: number;
  /** Makes every generated value reproducible (`--seed`); random when absent. */
  seed?: string | undefined;
  /** Where partner clocks start, ms since the epoch (`--start-time`); real time when absent. */
  startTimeMs?: number | undefined;
  /** A Brazilian state whose holidays join the banking calendar (`--holidays-region`). */
  holidaysRegion?: string | undefined;
  /** Milliseconds a client has to send complete request headers (`--headers-timeout`, 5 s). */
  headersTimeoutMs?: number | undefined;
  /** Milliseconds a client has to send a whole request, body included (`--request-timeout`, 10 s). */
  requestTimeoutMs?: number | undefined;
  /** Shared by several people or partners (`--hosted`): turns the per-client connection cap on. */
  hosted?: boolean | undefined;
  /** Open connections one client address may hold in hosted mode (`--max-connections-per-client`, 32). */
  maxConnectionsPerClient?: number | undefined;
  credential: DefaultCredential;
  /** An exported snapshot loaded into the default partner at start (`--snapshot`). */
  snapshotFile?: string | undefined;
  /** Snapshot bytes the instance keeps for all partners (`--max-snapshot-bytes-total`; 128 MiB). */
  maxSnapshotBytesTotal?: number | undefined;
  log?: Logger;
  /** One console line per request (`--log`); off when absent. */
  accessLog?: AccessLogFormat | undefined;
  /** Where the access log's text goes (one write per event-loop turn); stdout when absent. */
  accessLogWrite?: ((text: string) => void) | undefined;
}

export interface RunningServer {
  url: string;
  deps: AppDeps;
  /** The app the server serves (`app.fetch` takes the same request path as the socket). */
  app: OpenAPIHono<AppEnv>;
  /** Shared mode's ownership and forwarding (with `--database`). */
  shared: SharedMode | undefined;
  close(): Promise<void>;
}

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};

/** Builds the real dependencies, restores `--data`, and serves the app on a port. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const seed = options.seed;
  const signingKey = seed === undefined ? randomBytes(32) : seededKey(seed, 'access-tokens');
  const store = new Store(signingKey.toString('base64url'), { showRequestAnswer: redactJsonText });
  const log = options.log ?? consoleLogger;
  // Shared mode's modules (pg, the cluster) load only with --database: a single process starts
  // without them.
  const database = options.databaseUrl
    ? await (await import('./store/postgres/open.js')).openDatabase(options.databaseUrl, store, {
        log,
        realNow: () => Date.now(),
      })
    : undefined;
  const persistence =
    database ??
    (await openPersistence(store, {
      dataFile: options.dataFile,
      journalLimitBytes: options.journalLimitBytes,
      log,
      realNow: () => Date.now(),
    }));
  const config: AppConfig = {
    publicUrl: '',
    webhookHttpHosts: options.webhookHttpHosts,
    rateLimit: options.rateLimit,
    clockMode: options.clockMode,
    webhookTimeoutMs: options.webhookTimeoutMs ?? DEFAULT_CONFIG.webhookTimeoutMs,
    timings: options.timings ?? DEFAULT_CONFIG.timings,
    scenarioDirs: options.scenarioDirs ?? [],
    requestLogSize: options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE,
    webhookPublicOnly: options.safety?.webhookPublicOnly ?? false,
    partnerSignup: options.safety?.partnerSignup ?? true,
    quotas: options.safety?.quotas,
    startTimeMs: options.startTimeMs,
    holidaysRegion: options.holidaysRegion,
    maxSnapshotBytesTotal: options.maxSnapshotBytesTotal,
  };
  const unseeded = unseededStreams({ ids: randomIds, randomBytes: cryptoRandomBytes });
  const seeded =
    seed === undefined
      ? undefined
      : seededStreams(seed, {
          get: (name) => store.randomCounter(name),
          set: (name, draws) => store.setRandomCounter(name, draws),
        });
  // Shared mode seeds the partners' streams only (their positions are rows of the partner, so
  // they move with it). The server's stream and request ids are drawn by whichever instance
  // answers, with no position every instance shares: random there, so no two instances repeat.
  const streams =
    seeded && database ? { ...seeded, server: unseeded.server, named: unseeded.named } : (seeded ?? unseeded);
  const deps: AppDeps = createDeps({
    store,
    persistence,
    ids: streams.server.ids,
    randomBytes: streams.server.randomBytes,
    streams,
    realNow: () => Date.now(),
    config,
    log,
  });
  // Request ids are made per request: without --seed, a per-process counter behind a random
  // prefix (unique, cheap) instead of 128 random bits each.
  if (seed === undefined) deps.requestIds = counterIds();
  const shared = database
    ? (await import('./cluster/shared-mode.js')).sharedMode(
        deps,
        database,
        options.leaseMs,
        options.forwardWaitMs,
      )
    : undefined;
  if (!shared) {
    ensureDefaultPartner(deps, options.credential, options.clockMode);
    await deps.persistence.flush();
  }

  const app = createApp(deps);
  deps.engine.start();
  let cap: ConnectionCap | undefined;
  const accessLog =
    options.accessLog && options.accessLog !== 'off'
      ? new AccessLog(options.accessLog, options.accessLogWrite ?? ((text) => process.stdout.write(text)))
      : undefined;
  // Shared mode: every request goes through app.fetch, where the cluster gate sees it first.
  const entry = deps.clusterGate ? undefined : nodeEntryOf(app);
  const honest = honestConnections(MAX_BODY_BYTES);
  let slow: ReturnType<typeof answerSlowClientsAsProblems> | undefined;
  // Node's request handler: the request path's Node entry answers a /v3 request with a plain
  // target itself (src/http/pipeline/entries.ts; it prints its own access line), the app through
  // @hono/node-server the rest (the same pipeline for /v3). A request with a body is known to the
  // slow-client answer first (its endpoint picks the timeout's status). Wrapped by guardListener:
  // nothing thrown or rejected here ends the process.
  const listen =
    (app: RequestListener): RequestListener =>
    (req: IncomingMessage, res: ServerResponse) => {
      if (hasBody(req)) slow?.receiving(req, res);
      honest(req, res);
      if (entry && !cap?.refused(req.socket) && entry.node(req, res, accessLog)) return;
      accessLog?.watch(req, res);
      return app(req, res);
    };
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      {
        // A request that still arrives on a connection refused by the cap is not run.
        fetch: (req, env) =>
          cap?.refused(env.incoming.socket as Socket)
            ? new Response(null, { status: 429, headers: { connection: 'close' } })
            : app.fetch(req, env),
        port: options.port,
        hostname: options.host,
        // Bodies left unread by an early answer are dealt with by `honest` (src/http/early-answers.ts).
        autoCleanupIncoming: false,
        createServer: ((serverOptions: ServerOptions, app: RequestListener) =>
          createServer(
            serverOptions,
            guardListener(listen(app), log, () => config.publicUrl),
          )) as typeof createServer,
        serverOptions: slowClientServerOptions({
          headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
          requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        }),
      },
      () => resolve(s),
    );
    // A taken port (EADDRINUSE) rejects the start instead of crashing with a stack trace.
    s.once('error', (error) => {
      deps.engine.stop();
      void deps.persistence.close().finally(() => reject(error));
    });
    slow = answerSlowClientsAsProblems(s as Server, () => config.publicUrl);
    if (options.hosted) {
      cap = limitConnectionsPerClient(
        s as Server,
        options.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
        () => config.publicUrl,
      );
    }
  });
  const address = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  config.publicUrl = (options.publicUrl ?? `http://${shownHost}:${address.port}`).replace(/\/$/, '');
  const url = `http://${shownHost}:${address.port}`;
  await shared?.start(options.instanceUrl ?? url, options.credential, options.clockMode);

  const running: RunningServer = {
    url,
    deps,
    app,
    shared,
    close: () => closeServer({ server, deps, shared, accessLog, log }),
  };
  if (options.snapshotFile) {
    try {
      const loaded = await loadStartSnapshot(
        async (request) => app.fetch(request),
        options.snapshotFile,
        options.credential,
      );
      log.info(
        `snapshot: loaded "${loaded.name}" (${loaded.rows} rows) into the default partner from ${options.snapshotFile}`,
      );
    } catch (error) {
      await running.close();
      throw error;
    }
  }
  return running;
}
