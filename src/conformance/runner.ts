// The runner: finds out what the target answers (reachable? credential accepted? control API?),
// picks the checks, runs them (a few at a time, each with its own objects), and reports each
// result in the checks' order as soon as it and those before it are done.
import { randomBytes } from 'node:crypto';
import picomatch from 'picomatch';
import { enumValuesOf } from '../drift/structural-diff.js';
import { checkContext, KIT_PARTNER_LIFETIME_S, type RunServices } from './context.js';
import { CredentialRefused, type HttpOptions, partnerApi, send, Unreachable } from './http.js';
import { Recorder } from './recorder.js';
import { SPEC_ENUM_VALUES } from './spec/enums.js';
import type { Check, CheckResult, Mode, RunFacts } from './types.js';
import { Departure, Skipped } from './verdict.js';
import { MIN_DELIVERY_WAIT_MS } from './webhooks/hook.js';
import { type Listener, startListener } from './webhooks/listener.js';

export interface RunOptions {
  /** Base URL ending in `/v3`. */
  target: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** How long a webhook delivery is awaited (default: --timeout, at least 30 s). */
  deliveryWaitMs?: number;
  requestTimeoutMs?: number;
  only?: string[];
  skip?: string[];
  webhookListen?: { host: string; port: number };
  webhookPublicUrl?: string;
  /** Makes CPFs and external ids reproducible (`--compare` gives both runs the same). */
  seed?: string;
  /** Forces black-box mode even when the target answers the control API. */
  blackBox?: boolean;
  concurrency?: number;
  /** Called with each result, in the checks' order. */
  onResult?: (result: CheckResult) => void;
}

export interface RunOutcome {
  target: string;
  mode: Mode;
  startedAt: string;
  finishedAt: string;
  results: CheckResult[];
  recorder: Recorder;
  enumValues: ReadonlySet<string>;
}

/** The kit could not run at all (exit 2): unreachable target, refused credential. */
export class CannotRun extends Error {
  override name = 'CannotRun';
}

/** The checks `--only` and `--skip` leave (ids or globs, `*` within a segment, `**` across). */
export function selectChecks(checks: readonly Check[], only?: string[], skipped?: string[]): Check[] {
  const matcher = (patterns: string[]) => picomatch(patterns, { dot: true });
  const keep = only && only.length > 0 ? matcher(only.flatMap(widen)) : () => true;
  const drop = skipped && skipped.length > 0 ? matcher(skipped.flatMap(widen)) : () => false;
  return checks.filter((check) => keep(check.id) && !drop(check.id));
}

/** `customers` selects the whole area: a bare prefix also matches its sub-ids. */
function widen(pattern: string): string[] {
  return pattern.includes('*') ? [pattern] : [pattern, `${pattern}.**`];
}

export async function runChecks(checks: readonly Check[], options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const target = options.target.replace(/\/+$/, '');
  const recorder = new Recorder();
  const http = (sink: HttpOptions['sink']): HttpOptions => ({
    baseUrl: target,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    sink,
  });
  const probe = partnerApi(http(recorder.sink('(run)')), options.clientId, options.clientSecret);
  try {
    await probe.token();
  } catch (error) {
    if (error instanceof Unreachable) throw new CannotRun(`the target is unreachable: ${error.message}`);
    if (error instanceof CredentialRefused)
      throw new CannotRun(`the target refused the credential: ${error.message}`);
    throw error;
  }
  const mode: Mode = options.blackBox ? 'black-box' : await detectMode(probe);
  const spare = mode === 'controlled' ? await firstPartner(probe, http(undefined)) : undefined;
  const isolated = spare !== undefined;
  const document = await send(http(undefined), 'GET', '/openapi.json').catch(() => undefined);
  const enumValues = new Set([
    ...SPEC_ENUM_VALUES,
    ...(document?.status === 200 ? enumValuesOf(document.body) : []),
  ]);
  const facts: RunFacts = {
    mode,
    target,
    timeoutMs: options.timeoutMs,
    deliveryWaitMs: options.deliveryWaitMs ?? Math.max(options.timeoutMs, MIN_DELIVERY_WAIT_MS),
    runTag: options.seed ?? randomBytes(4).toString('hex'),
    enumValues,
  };
  let listener: Promise<Listener> | undefined;
  const services: RunServices = {
    facts,
    recorder,
    http,
    credential: { clientId: options.clientId, clientSecret: options.clientSecret },
    mainToken: {},
    isolatedPartners: isolated,
    spares: spare ? [spare] : [],
    listener: () => {
      listener ??= startListener(
        options.webhookListen ?? { host: '127.0.0.1', port: 0 },
        options.webhookPublicUrl,
      );
      return listener;
    },
    sharedFixtures: new Map(),
    journeys: new Map(),
    journeyRuns: [],
    deferred: [],
  };
  // A shared partner's clock moves for every check: one at a time then.
  const concurrency = mode === 'controlled' && !isolated ? 1 : Math.max(1, options.concurrency ?? 8);
  const results: Array<CheckResult | undefined> = new Array(checks.length);
  let printed = 0;
  const flush = () => {
    while (printed < checks.length && results[printed] !== undefined) {
      options.onResult?.(results[printed] as CheckResult);
      printed += 1;
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < checks.length) {
      const index = next++;
      const t0 = Date.now();
      results[index] = await runOne(checks[index] as Check, services);
      if (process.env.CONFORMANCE_PROFILE)
        process.stderr.write(`${Date.now() - t0}ms ${checks[index]?.id}\n`);
      flush();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, checks.length) }, worker));
  } finally {
    for (const journey of services.journeyRuns) await journey.close();
    for (const undo of services.deferred.reverse()) await undo().catch(() => undefined);
    // The first partner, when no check took it.
    for (const left of services.spares.splice(0)) {
      await probe.call('DELETE', `/sandbox/partners/${encodeURIComponent(left.id)}`).catch(() => undefined);
    }
    if (listener) await (await listener.catch(() => undefined))?.close();
  }
  return {
    target,
    mode,
    startedAt,
    finishedAt: new Date().toISOString(),
    results: results as CheckResult[],
    recorder,
    enumValues,
  };
}

async function runOne(check: Check, services: RunServices): Promise<CheckResult> {
  const base = { id: check.id, title: check.title, spec: check.spec };
  if (check.needs === 'controlled' && services.facts.mode !== 'controlled') {
    return {
      ...base,
      status: 'skip',
      reason:
        'needs the control API (/v3/sandbox/*) to move the clock or play the outside world; the target is a black box',
    };
  }
  const { ctx, close } = checkContext(check, services);
  try {
    await check.run(ctx);
    return { ...base, status: 'pass' };
  } catch (error) {
    if (error instanceof Skipped) return { ...base, status: 'skip', reason: error.message };
    const answer = error instanceof Departure ? (error.answer ?? ctx.lastAnswer()) : ctx.lastAnswer();
    const result: CheckResult = {
      ...base,
      status: 'fail',
      reason: error instanceof Error ? error.message : String(error),
    };
    if (error instanceof Departure) {
      if (error.expected !== undefined) result.expected = error.expected;
      if (error.actual !== undefined) result.actual = error.actual;
    } else if (!(error instanceof Unreachable)) {
      result.reason = `the check stopped on an unexpected error: ${result.reason}`;
    }
    if (answer) result.request = answer.request;
    return result;
  } finally {
    await close();
  }
}

/** The mode a target would run in (`--compare` runs both targets in the lesser of the two). */
export async function probeMode(
  options: Pick<RunOptions, 'target' | 'clientId' | 'clientSecret' | 'requestTimeoutMs'>,
): Promise<Mode> {
  const http: HttpOptions = {
    baseUrl: options.target.replace(/\/+$/, ''),
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
  };
  const api = partnerApi(http, options.clientId, options.clientSecret);
  try {
    await api.token();
  } catch (error) {
    if (error instanceof Unreachable) throw new CannotRun(`the target is unreachable: ${error.message}`);
    if (error instanceof CredentialRefused)
      throw new CannotRun(`the target refused the credential: ${error.message}`);
    throw error;
  }
  return detectMode(api);
}

/** Controlled when `GET /sandbox/clock` answers a clock (`{now, frozen}`). */
async function detectMode(api: ReturnType<typeof partnerApi>): Promise<Mode> {
  const clock = await api.call('GET', '/sandbox/clock').catch(() => undefined);
  const body = clock?.body as { now?: unknown; frozen?: unknown } | undefined;
  return clock?.status === 200 && typeof body?.now === 'string' && typeof body.frozen === 'boolean'
    ? 'controlled'
    : 'black-box';
}

/**
 * A first isolated partner, when `POST /sandbox/partners` is open (then every check gets its own
 * world and clock); the first check that needs a partner takes it.
 */
async function firstPartner(
  api: ReturnType<typeof partnerApi>,
  http: HttpOptions,
): Promise<{ id: string; clientId: string; clientSecret: string } | undefined> {
  const created = await api
    .call('POST', '/sandbox/partners', {
      body: { name: 'conformance kit', clock: 'frozen', expires_in: KIT_PARTNER_LIFETIME_S },
    })
    .catch(() => undefined);
  const body = created?.body as
    | { id?: unknown; client_id?: unknown; client_secret?: unknown; clock?: { frozen?: unknown } }
    | undefined;
  if (
    created?.status !== 201 ||
    typeof body?.id !== 'string' ||
    typeof body?.client_id !== 'string' ||
    typeof body.client_secret !== 'string'
  ) {
    return undefined;
  }
  // Older sandboxes ignore `clock` in the request: freeze explicitly then.
  if (body.clock?.frozen !== true) {
    await partnerApi(http, body.client_id, body.client_secret).call('POST', '/sandbox/clock/freeze');
  }
  return { id: body.id, clientId: body.client_id, clientSecret: body.client_secret };
}
