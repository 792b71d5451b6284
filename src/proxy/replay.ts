import { randomBytes } from 'node:crypto';
import { type AnswerShape, type DiffRules, diffAnswers, enumValuesOf } from '../drift/structural-diff.js';
import {
  type ExchangeLine,
  isWebhookLine,
  type RecordingLine,
  type WebhookLine,
} from './recording-format.js';
import { IdMap } from './replay-ids.js';
import { clockStep, controlMove, kindOf, type Lag, lagsOf, readPath } from './replay-moves.js';
import type { ReplayEntry, ReplayReport } from './replay-report.js';
import { replayRequest } from './replay-request.js';
import { type Credential, type TargetAnswer, TargetClient, TargetError } from './target-client.js';
import { parseUpstream } from './upstream.js';

export interface ReplayOptions {
  lines: readonly RecordingLine[];
  /** The recording's name, for the report. */
  source: string;
  /** The sandbox's base URL, ending in `/v3`. */
  target: string;
  /** Replay as this partner; without it, a new partner is made with `bootstrap` (`POST /v3/sandbox/partners`). */
  credential?: Credential;
  bootstrap: Credential;
  webhookUrl?: string;
  progress?: (line: string) => void;
}

/** Clock steps a replay may take to let one object catch up (2 minutes of seconds, or 120 days). */
const MAX_WAIT_STEPS = 120;
/** Payments a replay may make to finish one loan. */
const MAX_REPEATS = 100;

/**
 * Replays a recording's requests in order against a sandbox (see docs/proxy.md): ids mapped as they
 * are learned, moves made outside the API inferred and made with the control API, each answer
 * compared with the recorded one by the structural differ `conformance --compare` uses.
 */
export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  const started = new Date();
  const target = parseUpstream(options.target, '--target').href;
  const credential = options.credential ?? (await newPartner(target, options.bootstrap, options.source));
  const client = new TargetClient(target, credential);
  const ids = new IdMap();
  const runId = randomBytes(4).toString('hex');
  const rules: DiffRules = { enumValues: await enumValues(client) };
  const entries: ReplayEntry[] = [];
  try {
    for (const [index, line] of options.lines.entries()) {
      const entry = isWebhookLine(line)
        ? await replayWebhook(client, ids, line, index + 1)
        : await replayExchange(client, ids, line, index + 1, {
            runId,
            rules,
            webhookUrl: options.webhookUrl,
          });
      entries.push(entry);
      options.progress?.(`line ${entry.line} ${entry.recorded}${entry.status ? ` → ${entry.status}` : ''}`);
    }
  } finally {
    await client.close();
  }
  const exchanges = entries.filter((entry) => entry.kind === 'exchange');
  return {
    format: 'credit-sandbox-replay',
    version: 1,
    recording: options.source,
    target,
    client_id: credential.clientId,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    summary: {
      exchanges: exchanges.length,
      replayed: exchanges.filter((entry) => !entry.skipped).length,
      skipped: exchanges.filter((entry) => entry.skipped).length,
      differences: entries.reduce((sum, entry) => sum + entry.differences.length, 0),
      moves: entries.reduce((sum, entry) => sum + entry.moves.length, 0),
    },
    entries,
  };
}

/**
 * A replay's partner stays a day for looking at what the replay left (the dashboard, the
 * inspector), then a sandbox that knows lifetimes removes it; older sandboxes ignore the field.
 */
export const REPLAY_PARTNER_LIFETIME_S = 86_400;

async function newPartner(target: string, bootstrap: Credential, source: string): Promise<Credential> {
  const client = new TargetClient(target, bootstrap);
  try {
    const name = `replay of ${source.split(/[\\/]/).at(-1) ?? 'a recording'}`.slice(0, 200);
    const created = await client.call('POST', '/sandbox/partners', {
      json: { name, clock: 'frozen', expires_in: REPLAY_PARTNER_LIFETIME_S },
    });
    const body = created.body as { client_id?: unknown; client_secret?: unknown } | undefined;
    if (
      created.status !== 201 ||
      typeof body?.client_id !== 'string' ||
      typeof body.client_secret !== 'string'
    ) {
      throw new TargetError(
        `${target}: could not create a partner to replay as (POST /v3/sandbox/partners answered ${created.status}); give --client-id and --client-secret`,
      );
    }
    return { clientId: body.client_id, clientSecret: body.client_secret };
  } finally {
    await client.close();
  }
}

async function enumValues(client: TargetClient): Promise<Set<string>> {
  const answer = await client.call('GET', '/openapi.json');
  return answer.status === 200 ? enumValuesOf(answer.body) : new Set();
}

function shape(
  status: number,
  headers: Record<string, string>,
  body: unknown,
  compareBody: boolean,
): AnswerShape {
  return { status, headers, body: compareBody ? (body ?? undefined) : undefined };
}

async function replayExchange(
  client: TargetClient,
  ids: IdMap,
  line: ExchangeLine,
  number: number,
  context: { runId: string; rules: DiffRules; webhookUrl: string | undefined },
): Promise<ReplayEntry> {
  const recorded = `${line.request.method} ${line.request.path.split('?', 1)[0]}`;
  const entry: ReplayEntry = {
    line: number,
    kind: 'exchange',
    operation: line.operation,
    recorded,
    recorded_status: line.response.status,
    differences: [],
    moves: [],
  };
  if (!line.request.path.startsWith('/v3/')) return { ...entry, skipped: 'outside the API base path' };
  if (line.error !== undefined) return { ...entry, skipped: `the upstream did not answer: ${line.error}` };
  let send: () => Promise<TargetAnswer>;
  if (line.request.method === 'POST' && line.request.path.split('?', 1)[0] === '/v3/auth/token') {
    entry.sent = 'POST /v3/auth/token';
    send = async () => {
      const answer = await client.call('POST', '/auth/token', { authorization: client.basic() });
      client.useToken(answer);
      return answer;
    };
  } else {
    const request = replayRequest(line, { ids, runId: context.runId, webhookUrl: context.webhookUrl });
    entry.sent = `${request.method} /v3${request.path.split('?', 1)[0]}`;
    send = () => client.call(request.method, request.path, request.options);
  }
  let answer = await send();
  if (line.request.method === 'GET' && answer.status < 300) {
    answer = await catchUp(client, line.response.body, answer, send, entry.moves);
  }
  ids.learn(line.response.body, answer.body);
  ids.learnLocation(line.response.headers.location, answer.headers.location);
  const compareBody = !(line.response.body === null && line.response.body_bytes > 0);
  entry.status = answer.status;
  entry.differences = diffAnswers(
    shape(line.response.status, line.response.headers, line.response.body, compareBody),
    shape(answer.status, answer.headers, answer.body, compareBody),
    context.rules,
  );
  return entry;
}

/**
 * Makes the target's objects in an answer reach the statuses the recorded answer shows: a control
 * move where one exists, else the clock moves one step; then the request is sent again. Bounded.
 */
async function catchUp(
  client: TargetClient,
  recordedBody: unknown,
  first: TargetAnswer,
  send: () => Promise<TargetAnswer>,
  moves: string[],
): Promise<TargetAnswer> {
  let answer = first;
  const made = new Map<string, number>();
  const advanced = new Map<string, number>();
  for (let step = 0; step < MAX_WAIT_STEPS; step++) {
    const lags = lagsOf(recordedBody, answer.body);
    if (lags.length === 0) break;
    if (!(await moveOn(client, lags, made, moves))) {
      const by = clockStep(lags);
      const moved = await client.call('POST', '/sandbox/clock/advance', { json: { by } });
      if (moved.status !== 200) {
        moves.push(`could not move the clock (${moved.status}): the target may not be a sandbox`);
        break;
      }
      advanced.set(by, (advanced.get(by) ?? 0) + 1);
    }
    answer = await send();
  }
  for (const [by, count] of advanced) moves.push(`the clock moved ${count} × ${by}`);
  return answer;
}

/** Makes every control move the lags call for (each once, payments toward a finished loan repeatedly). */
async function moveOn(
  client: TargetClient,
  lags: readonly Lag[],
  made: Map<string, number>,
  moves: string[],
): Promise<boolean> {
  let moved = false;
  for (const lag of lags) {
    const move = controlMove(lag);
    if (!move) continue;
    const times = made.get(move.what) ?? 0;
    const repeatable = lag.kind === 'loan' && lag.recorded.status === 'finished';
    if (times >= (repeatable ? MAX_REPEATS : 1)) continue;
    made.set(move.what, times + 1);
    const answer = await client.call(move.method, move.path, move.body ? { json: move.body } : {});
    if (answer.status >= 300) {
      made.set(move.what, MAX_REPEATS);
      moves.push(`${move.what}: ${move.method} /v3${move.path} answered ${answer.status}`);
      continue;
    }
    if (times === 0) moves.push(move.what);
    moved = true;
  }
  return moved;
}

/** A delivered event: learn the ids it names, and make the target's object reach its status. */
async function replayWebhook(
  client: TargetClient,
  ids: IdMap,
  line: WebhookLine,
  number: number,
): Promise<ReplayEntry> {
  const entry: ReplayEntry = {
    line: number,
    kind: 'webhook',
    operation: null,
    recorded: `webhook ${line.webhook.type ?? '(no type)'}`,
    differences: [],
    moves: [],
  };
  const data = (line.webhook.body as { data?: unknown } | null)?.data as Record<string, unknown> | undefined;
  if (typeof data?.id !== 'string' || typeof data.status !== 'string') return entry;
  const kind = kindOf(data.id);
  if (kind === 'offer' && ids.get(data.id) === undefined && typeof data.customer_id === 'string') {
    // An offer made by the service, first seen in its event: pair it with the customer's newest one not yet paired.
    const customer = ids.get(data.customer_id);
    const list = customer
      ? await client.call('GET', `/customers/${customer}/credit-offers?limit=100`)
      : undefined;
    const offers = ((list?.body as { data?: Array<{ id?: unknown }> } | undefined)?.data ?? []).map(
      (offer) => offer.id,
    );
    const free = offers.find((id): id is string => typeof id === 'string' && !ids.hasTarget(id));
    if (free) ids.add(data.id, free);
  }
  const mapped = ids.get(data.id);
  const path = kind && mapped ? readPath(kind, mapped) : undefined;
  if (!path) return entry;
  const send = () => client.call('GET', path);
  const first = await send();
  if (first.status === 200) await catchUp(client, data, first, send, entry.moves);
  return entry;
}
