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
import { ensureDefaultPartner } from './domain/default-partner.js';
import { AccessLog } from './http/access-log.js';
import {
  type ConnectionCap,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  limitConnectionsPerClient,
  slowClientServerOptions,
} from './http/connection-limits.js';
import { type AppConfig, type AppDeps, DEFAULT_CONFIG, type Logger } from './http/deps.js';
import { hasBody, honestConnections } from './http/early-answers.js';
import type { AppEnv } from './http/env.js';
import { keepIdleConnectionsPastTheirHint } from './http/keep-alive.js';
import { guardListener } from './http/node-guard.js';
import { answerSlowClientsAsProblems } from './http/slow-client-answer.js';
import { DEFAULT_REQUEST_LOG_SIZE } from './inspector/request-log.js';
import { counterIds, cryptoRandomBytes, randomIds } from './lib/ids.js';
import { seededKey, seededStreams, unseededStreams } from './lib/random-streams.js';
import { redactJsonText } from './lib/redact.js';
import type { ServeOptions } from './serve-options.js';
import { closeServer } from './server-shutdown.js';
import { loadStartSnapshot } from './start-snapshot.js';
import { openPersistence } from './store/open-persistence.js';
import { Store } from './store/store.js';
import { sandboxMetrics } from './tenancy/metrics-sources.js';
import { PartnerSweeper } from './tenancy/sweeper.js';

export type { ServeOptions } from './serve-options.js';

export interface RunningServer {
  url: string;
  deps: AppDeps;
  /** The app the server serves (`app.fetch` takes the same request path as the socket). */
  app: OpenAPIHono<AppEnv>;
  /** Shared mode's ownership and forwarding (with `--database`). */
  shared: SharedMode | undefined;
  /** Removes expired partners every few seconds; `sweep()` runs one now (tests). */
  sweeper: PartnerSweeper;
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
    partnerTtlSeconds: options.partnerTtlSeconds,
    maxPartners: options.maxPartners,
    maxSnapshotBytesTotal: options.maxSnapshotBytesTotal,
  };
  let shared: SharedMode | undefined;
  const metrics = options.metrics === false ? undefined : sandboxMetrics(store, () => shared);
  if (metrics)
    persistence.onWrite = (seconds) => metrics.observeFlush(database ? 'postgres' : 'journal', seconds);
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
    realNow: options.realNow ?? (() => Date.now()),
    config,
    log,
    onWebhookAttempt: metrics && ((outcome) => metrics.observeAttempt(outcome)),
  });
  if (metrics) {
    deps.metrics = {
      recorder: metrics,
      access: { token: options.metricsToken, hosted: Boolean(options.hosted || database) },
    };
  }
  // Request ids are made per request: without --seed, a per-process counter behind a random
  // prefix (unique, cheap) instead of 128 random bits each.
  if (seed === undefined) deps.requestIds = counterIds();
  shared = database
    ? (await import('./cluster/shared-mode.js')).sharedMode(deps, database, {
        leaseMs: options.leaseMs,
        forwardWaitMs: options.forwardWaitMs,
        idleUnloadMs: options.idleUnloadMs,
      })
    : undefined;
  const sweeper = new PartnerSweeper({ ...deps, remote: shared?.directory });
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
  let advertise: ((res: ServerResponse) => void) | undefined;
  // Node's request handler: the request path's Node entry answers a /v3 request with a plain
  // target itself (src/http/pipeline/entries.ts; it prints its own access line), the app through
  // @hono/node-server the rest (the same pipeline for /v3). A request with a body is known to the
  // slow-client answer first (its endpoint picks the timeout's status). Wrapped by guardListener:
  // nothing thrown or rejected here ends the process.
  const listen =
    (app: RequestListener): RequestListener =>
    (req: IncomingMessage, res: ServerResponse) => {
      advertise?.(res);
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
    advertise = keepIdleConnectionsPastTheirHint(s as Server, options.keepAliveTimeoutMs);
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
  sweeper.start();

  const running: RunningServer = {
    url,
    deps,
    app,
    shared,
    sweeper,
    close: () => closeServer({ server, deps, shared, sweeper, accessLog, log }),
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
