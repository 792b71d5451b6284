import { stringify } from 'yaml';
import { type ExchangeLine, isWebhookLine, type RecordingLine } from './recording-format.js';
import { isBehind, kindOf, readPath } from './replay-moves.js';
import { sampleFor } from './replay-request.js';
import { movesBetween, needsMoves, reachStep, type Step, statusCondition } from './scenario-plan.js';

/**
 * `scenario from-recording`: a scenario file (docs/scenarios.md) that rebuilds a recorded session on
 * any sandbox — each recorded request a step (ids replaced by captures, CPFs by fresh ones, the
 * recorded status expected, the statuses seen checked), and each move the recording shows but no
 * request made turned into control calls and clock waits. It declares a Pact provider state, so a
 * consumer's contract test can start from the recorded situation.
 */

export interface ScenarioOptions {
  /** kebab-case; the file must be named `<name>.yaml`. */
  name: string;
  providerState?: string;
  source: string;
}

export interface GeneratedScenario {
  yaml: string;
  steps: number;
  /** Recording lines left out, and why. */
  skipped: string[];
}

type Json = Record<string, unknown>;
const ID_IN_TEXT = /\b[a-z]{2,8}_[A-Za-z0-9_-]{6,}\b/g;
const CAPTURE_NAMES: Record<string, string> = {
  cust: 'customer',
  doc: 'document',
  co: 'offer',
  sim: 'simulation',
  ln: 'loan',
  tx: 'transaction',
  cid: 'credential',
};
/** Kinds whose objects the scenario may have to move, so their ids are always captured. */
const MOVED = new Set(['customer', 'loan', 'offer']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects with an id in a body, with the path a capture names them by (`body`, `body.data[0]`). */
function objectsIn(body: unknown, at = 'body', depth = 0): Array<{ at: string; object: Json }> {
  if (depth > 8) return [];
  if (Array.isArray(body))
    return body.slice(0, 100).flatMap((item, i) => objectsIn(item, `${at}[${i}]`, depth + 1));
  if (!isObject(body)) return [];
  const own = typeof body.id === 'string' ? [{ at, object: body }] : [];
  const data = Array.isArray(body.data) ? objectsIn(body.data, `${at}.data`, depth + 1) : [];
  return [...own, ...data];
}

class Generator {
  readonly steps: Step[] = [];
  readonly skipped: string[] = [];
  readonly params: Record<string, Json> = {};
  private readonly expressions = new Map<string, string>();
  private readonly names = new Set<string>();
  private readonly last = new Map<string, Json>();
  private readonly cpfs = new Map<string, string>();
  private readonly keys = new Map<string, string>();

  constructor(private readonly referenced: Set<string>) {}

  /** A text with known ids as placeholders; undefined when it names an id the scenario cannot know. */
  text(value: string): string | undefined {
    let unknown = false;
    const out = value.replace(ID_IN_TEXT, (id) => {
      const expression = this.expressions.get(id);
      if (expression) return `\${${expression}}`;
      if (kindOf(id) || CAPTURE_NAMES[id.slice(0, id.indexOf('_'))]) unknown = true;
      return id;
    });
    return unknown ? undefined : out;
  }

  /** A recorded object for planning moves: known ids as placeholders, the others left as they are. */
  lenient(value: Json): Json {
    const known = (text: string) =>
      text.replace(ID_IN_TEXT, (id) => {
        const expression = this.expressions.get(id);
        return expression ? `\${${expression}}` : id;
      });
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? known(v) : v]),
    );
  }

  value(value: unknown, key?: string): unknown {
    if (typeof value === 'string') {
      if (key === 'cpf') return this.cpf(value);
      const out = this.text(value);
      if (out === undefined) throw new Error(`names ${value}, which the scenario cannot know`);
      return out;
    }
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (isObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.value(v, k)]));
    return value;
  }

  /**
   * Each recorded CPF becomes a param whose default is the recorded one: the sandbox derives a
   * customer's offer terms and magic behaviour from the CPF, so the recorded CPF rebuilds the
   * recorded session. A CPF registers once per partner: to run again on the same partner, pass
   * another CPF of the same profile (`--param cpf=…`).
   */
  private cpf(recorded: string): string {
    let param = this.cpfs.get(recorded);
    if (!param) {
      param = this.cpfs.size === 0 ? 'cpf' : `cpf_${this.cpfs.size + 1}`;
      this.cpfs.set(recorded, param);
      this.params[param] = {
        description:
          'CPF of a recorded customer; it decides the offer terms (a CPF registers once per partner)',
        default: recorded,
      };
    }
    return `\${params.${param}}`;
  }

  private captureName(id: string): string {
    const base = CAPTURE_NAMES[id.slice(0, id.indexOf('_'))] ?? 'object';
    let name = base;
    for (let n = 2; this.names.has(name); n++) name = `${base}_${n}`;
    this.names.add(name);
    return name;
  }

  /** The objects of a recorded answer (or event) the recording has seen less far along: moves first. */
  private catchUp(objects: Array<{ at: string; object: Json }>): {
    moves: Step[];
    waits: Array<[string, string, string]>;
  } {
    const moves: Step[] = [];
    const waits: Array<[string, string, string]> = [];
    for (const { at, object } of objects) {
      const id = String(object.id);
      const kind = kindOf(id);
      const last = this.last.get(id);
      if (kind && last && typeof object.status === 'string' && needsMoves(kind, last, object)) {
        moves.push(...movesBetween(kind, this.lenient(last), this.lenient(object)));
        const overdue = kind === 'transaction' && object.status === 'overdue';
        waits.push([at, object.status, overdue ? '1d' : '1s']);
      }
    }
    return { moves, waits };
  }

  /** Remembers how far along each object is (never backward: deliveries arrive late). */
  private see(objects: Array<{ object: Json }>): void {
    for (const { object } of objects) {
      const id = String(object.id);
      const kind = kindOf(id);
      const last = this.last.get(id);
      if (!kind || typeof object.status !== 'string') continue;
      if (!last || isBehind(kind, last.status, object.status) || last.status === object.status)
        this.last.set(id, object);
    }
  }

  exchange(line: ExchangeLine, number: number): void {
    const { request, response } = line;
    const label = `${line.operation ?? `${request.method} ${request.path}`} (recording line ${number})`;
    const path = this.text(request.path);
    if (path === undefined)
      return void this.skipped.push(
        `line ${number}: ${request.method} ${request.path} names an id the scenario cannot learn`,
      );
    const step: Step = { name: label };
    const sent: Json = { method: request.method, path };
    const key = request.headers['idempotency-key'];
    if (key !== undefined) {
      if (!this.keys.has(key)) this.keys.set(key, `\${run.id}-${this.keys.size + 1}`);
      sent.headers = { 'Idempotency-Key': this.keys.get(key) };
    }
    try {
      if (request.form) {
        const form: Json = Object.fromEntries(
          Object.entries(request.form.fields).map(([k, v]) => [k, this.value(v, k)]),
        );
        for (const file of request.form.files) form[file.field] = `@${sampleFor(file.content_type)}`;
        sent.form = form;
      } else if (request.body !== null && request.body !== undefined) sent.body = this.value(request.body);
    } catch (error) {
      return void this.skipped.push(`line ${number}: the body ${(error as Error).message}`);
    }
    step.request = sent;
    const objects = objectsIn(response.body);
    const { moves, waits } = line.request.method === 'GET' ? this.catchUp(objects) : { moves: [], waits: [] };
    this.steps.push(...moves);
    const conditions = objects
      .filter(({ object }) => typeof object.status === 'string')
      .slice(0, 12)
      .map(({ at, object }) => statusCondition(at.replace(/^body/, 'response.body'), String(object.status)));
    if (waits.length > 0) {
      step.wait_until = conditions;
      step.every = waits.some(([, , every]) => every === '1d') ? '1d' : '1s';
      step.within = step.every === '1d' ? '400d' : '2m';
    } else {
      step.expect_status = response.status;
      if (conditions.length > 0) step.expect = conditions;
    }
    const captures: Json = {};
    for (const { at, object } of objects) {
      const id = String(object.id);
      const kind = kindOf(id);
      if (this.expressions.has(id) || !(this.referenced.has(id) || (kind && MOVED.has(kind)))) continue;
      const name = this.captureName(id);
      captures[name] = at;
      this.expressions.set(id, `${name}.id`);
    }
    if (Object.keys(captures).length > 0) step.capture = captures;
    this.steps.push(step);
    this.see(objects);
  }

  webhook(data: unknown, type: string, number: number): void {
    if (!isObject(data) || typeof data.id !== 'string' || typeof data.status !== 'string') return;
    const kind = kindOf(data.id);
    const expression = this.expressions.get(data.id);
    const read = kind && expression ? readPath(kind, `\${${expression}}`) : undefined;
    const path = read === undefined ? undefined : `/v3${read}`;
    const last = this.last.get(data.id);
    if (!kind || !path || !last || !needsMoves(kind, last, data)) {
      this.see([{ object: data }]);
      return;
    }
    this.steps.push(...movesBetween(kind, this.lenient(last), this.lenient(data)));
    // An event may show a passing state (kyc_updated just before under_review): wait only for a status further along.
    if (isBehind(kind, last.status, data.status)) {
      this.steps.push(reachStep(`${type} (recording line ${number})`, kind, path, data.status));
    }
    this.see([{ object: data }]);
  }
}

/** Every id a recorded request names (path, query, body): the ids a scenario must capture. */
function referencedIds(lines: readonly RecordingLine[]): Set<string> {
  const ids = new Set<string>();
  for (const line of lines) {
    if (isWebhookLine(line)) continue;
    const text = `${line.request.path} ${JSON.stringify(line.request.body ?? null)} ${JSON.stringify(line.request.form ?? null)}`;
    for (const id of text.match(ID_IN_TEXT) ?? []) ids.add(id);
  }
  return ids;
}

export function scenarioFromRecording(
  lines: readonly RecordingLine[],
  options: ScenarioOptions,
): GeneratedScenario {
  const generator = new Generator(referencedIds(lines));
  for (const [index, line] of lines.entries()) {
    const number = index + 1;
    if (isWebhookLine(line)) {
      generator.webhook((line.webhook.body as Json | null)?.data, line.webhook.type ?? 'event', number);
      continue;
    }
    const path = line.request.path.split('?', 1)[0]!;
    if (!path.startsWith('/v3/')) generator.skipped.push(`line ${number}: ${path} is outside the API`);
    else if (path === '/v3/auth/token') continue;
    else if (path.startsWith('/v3/webhooks/'))
      generator.skipped.push(`line ${number}: webhook endpoints are the receiver's plumbing, not the state`);
    else if (line.error !== undefined) generator.skipped.push(`line ${number}: the upstream did not answer`);
    else generator.exchange(line, number);
  }
  const state = options.providerState ?? `the recorded session ${options.name}`;
  const document = {
    name: options.name,
    description: `Rebuilds the session recorded in ${options.source.split(/[\\/]/).at(-1)} by credit-sandbox proxy: ${generator.steps.length} steps, the moves made outside the API as control calls and clock waits. Generated by \`credit-sandbox scenario from-recording\`.`,
    provider_states: [state],
    ...(Object.keys(generator.params).length > 0 && { params: generator.params }),
    steps: generator.steps,
  };
  return {
    yaml: stringify(document, { lineWidth: 0 }),
    steps: generator.steps.length,
    skipped: generator.skipped,
  };
}
