import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { ALL_EVENT_TYPES } from '../event-types.js';
import { desugarChaosStep } from './chaos-step.js';
import { CLOCK_DURATION_HINT, clockDurationMs, REAL_DURATION_HINT, realDurationMs } from './durations.js';
import { classifyWord, type Expression, parseExpression } from './expressions.js';
import { desugarFaultStep } from './fault-step.js';
import { parsePath } from './paths.js';
import { providerStateClashes } from './provider-states.js';
import {
  type AdvanceFile,
  RESERVED_NAMES,
  type RequestFileShape,
  ScenarioFile,
  StepFile,
  type StepFileShape,
} from './schema.js';
import { alternatives, fallbackLiteral, placeholders, RANDOM_NAMES } from './scope.js';
import { desugarSnapshotStep } from './snapshot-step.js';
import type { ParamSpec, ParamType, RequestSpec, Scenario, Step } from './types.js';

/** One thing wrong with a scenario file: where (file, step) and what. */
export interface ScenarioProblem {
  file: string;
  step?: { index: number; name?: string | undefined };
  message: string;
}

/** A scenario file that cannot be used; the message lists every problem, each naming file and step. */
export class ScenarioFileError extends Error {
  override name = 'ScenarioFileError';
  constructor(readonly problems: ScenarioProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

/** `scenarios/x.yaml: step 3 ("upload the selfie"): request.method: must be one of …` */
export function formatProblem(problem: ScenarioProblem): string {
  const step = problem.step
    ? ` step ${problem.step.index}${problem.step.name ? ` ("${problem.step.name}")` : ''}:`
    : '';
  return `${problem.file}:${step} ${problem.message}`;
}

export interface LoadOptions {
  /** Where `@file` form values are looked up (fixtures/). */
  fixturesDir?: string;
  /** How the file is named in messages (default: the path as given). */
  displayName?: string;
  /** Finds the scenario an `include` step names (a string says why it cannot be used). */
  include?: (name: string) => Scenario | string;
}

/** Reads and validates one scenario file. */
export function loadScenarioFile(path: string, options: LoadOptions = {}): Scenario {
  const display = options.displayName ?? path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScenarioFileError([{ file: display, message: `cannot read: ${(error as Error).message}` }]);
  }
  return parseScenario(text, { ...options, displayName: display, expectedName: scenarioFileName(path) });
}

/** The scenario name a file must declare: its name without .yaml / .yml. */
export function scenarioFileName(path: string): string {
  return basename(path).replace(/\.ya?ml$/, '');
}

/**
 * Every `*.yaml` / `*.yml` of the directories, by name, includes resolved; all problems of all files
 * are reported together.
 */
export function loadScenarioDirs(dirs: readonly string[], options: LoadOptions = {}): Map<string, Scenario> {
  const files = new Map<string, { path: string; display: string }>();
  const problems: ScenarioProblem[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      problems.push({ file: dir, message: 'is not a directory of scenario files' });
      continue;
    }
    for (const entry of readdirSync(dir).sort()) {
      if (!/\.ya?ml$/.test(entry)) continue;
      const path = join(dir, entry);
      const display = relative(process.cwd(), path) || path;
      const name = scenarioFileName(path);
      const clash = files.get(name);
      if (clash)
        problems.push({ file: display, message: `scenario "${name}" is also defined in ${clash.display}` });
      else files.set(name, { path, display });
    }
  }
  const built = new Map<string, Scenario>();
  const broken = new Set<string>();
  const building: string[] = [];
  const build = (name: string): Scenario | string => {
    const done = built.get(name);
    if (done) return done;
    if (broken.has(name)) return `scenario "${name}" is invalid (see its own errors)`;
    if (building.includes(name))
      return `${[...building.slice(building.indexOf(name)), name].join(' → ')} is a cycle`;
    const file = files.get(name);
    if (!file) return `no scenario "${name}" (available: ${[...files.keys()].join(', ')})`;
    building.push(name);
    try {
      const scenario = loadScenarioFile(file.path, { ...options, displayName: file.display, include: build });
      built.set(name, scenario);
      return scenario;
    } catch (error) {
      if (!(error instanceof ScenarioFileError)) throw error;
      problems.push(...error.problems);
      broken.add(name);
      return `scenario "${name}" is invalid (see its own errors)`;
    } finally {
      building.pop();
    }
  };
  for (const name of files.keys()) build(name);
  problems.push(...providerStateClashes(built));
  if (problems.length > 0) throw new ScenarioFileError(problems);
  return built;
}

/** Validates the text of a scenario file (YAML). */
export function parseScenario(text: string, options: LoadOptions & { expectedName?: string } = {}): Scenario {
  const file = options.displayName ?? 'scenario';
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  if (doc.errors.length > 0) {
    throw new ScenarioFileError(
      doc.errors.map((error) => {
        const pos = lines.linePos(error.pos[0]);
        return { file: `${file}:${pos.line}:${pos.col}`, message: `invalid YAML: ${error.message}` };
      }),
    );
  }
  const raw: unknown = doc.toJS();
  const top = ScenarioFile.safeParse(raw);
  if (!top.success) {
    throw new ScenarioFileError(top.error.issues.map((issue) => ({ file, message: issueMessage(issue) })));
  }
  const problems: ScenarioProblem[] = [];
  if (options.expectedName && top.data.name !== options.expectedName) {
    problems.push({
      file,
      message: `name "${top.data.name}" must match the file name (${options.expectedName}.yaml), so runs can find it`,
    });
  }
  const params = parseParams(top.data.params ?? {}, (message) => problems.push({ file, message }));
  const checker = new StepChecker(file, params, options, problems);
  const steps = top.data.steps.flatMap((rawStep, k) => checker.step(rawStep, k + 1) ?? []);
  if (problems.length > 0) throw new ScenarioFileError(problems);
  return {
    name: top.data.name,
    description: top.data.description.trim(),
    file,
    params,
    steps,
    providerStates: top.data.provider_states ?? [],
  };
}

function parseParams(raw: Record<string, unknown>, problem: (message: string) => void): ParamSpec[] {
  return Object.entries(raw).map(([name, value]) => {
    const spec =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { default: value };
    const def = spec.default as ParamSpec['default'];
    const type = (spec.type as ParamType | undefined) ?? inferType(def);
    if (def !== undefined && !fitsType(def, type)) {
      problem(`params.${name}: default ${JSON.stringify(def)} is not of type ${type}`);
    }
    for (const ref of placeholders(def)) {
      if (!ref.startsWith('random.')) {
        problem(
          `params.${name}: a default may only use \${random.*} (${RANDOM_NAMES.join(', ')}), not \${${ref}}`,
        );
      }
    }
    return {
      name,
      type,
      description: spec.description as string | undefined,
      default: def,
      required: (spec.required as boolean | undefined) ?? def === undefined,
      example: spec.example as ParamSpec['example'],
    };
  });
}

function inferType(value: unknown): ParamType {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

function fitsType(value: string | number | boolean, type: ParamType): boolean {
  if (typeof value === 'string' && value.includes('${')) return true;
  return coerceParam(value, type) !== undefined;
}

/** A param value converted to its declared type (CLI values arrive as text), or undefined. */
export function coerceParam(value: unknown, type: ParamType): string | number | boolean | undefined {
  if (type === 'string') {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    return value === 'true' ? true : value === 'false' ? false : undefined;
  }
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) return undefined;
  if (type === 'integer' && !Number.isInteger(n)) return undefined;
  return n;
}

/** Checks each step in order, tracking the names captured so far. */
class StepChecker {
  private readonly known = new Set<string>(['params', 'run', 'random']);

  private readonly fixturesDir: string | undefined;

  constructor(
    private readonly file: string,
    private readonly params: ParamSpec[],
    private readonly options: LoadOptions,
    private readonly problems: ScenarioProblem[],
  ) {
    this.fixturesDir = options.fixturesDir;
  }

  step(raw: unknown, index: number): Step | undefined {
    const rawName =
      raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string'
        ? ((raw as { name: string }).name as string)
        : undefined;
    const where = { index, name: rawName };
    const problem = (message: string) => this.problems.push({ file: this.file, step: where, message });
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problem(
        'a step is a mapping with one of request, advance, wait_until, expect, include, chaos, fault, snapshot or restore',
      );
      return undefined;
    }
    const fault = desugarFaultStep(raw);
    if ('problem' in fault) {
      problem(fault.problem);
      return undefined;
    }
    const chaos = desugarChaosStep(fault.step);
    const desugared = 'problem' in chaos ? chaos : desugarSnapshotStep(chaos.step);
    if ('problem' in desugared) {
      problem(desugared.problem);
      return undefined;
    }
    const parsed = StepFile.safeParse(desugared.step);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problem(issueMessage(issue, STEP_KEYS));
      return undefined;
    }
    const before = this.problems.length;
    const step = this.build(parsed.data, index, problem);
    const explain = parsed.data.explain === undefined ? [] : [parsed.data.explain].flat();
    for (const path of explain) {
      try {
        parsePath(path);
      } catch (error) {
        problem(`explain: ${(error as Error).message}`);
      }
    }
    if (!step || this.problems.length !== before) return undefined;
    return {
      ...step,
      ...(parsed.data.always ? { always: true } : {}),
      ...(explain.length ? { explain } : {}),
    };
  }

  private build(s: StepFileShape, index: number, problem: (message: string) => void): Step | undefined {
    const kinds = (['request', 'advance', 'wait_until', 'include'] as const).filter(
      (k) => s[k] !== undefined,
    );
    if (s.include !== undefined) {
      if (kinds.length > 1 || s.expect !== undefined) {
        problem('include runs another scenario; put requests, advances and checks in separate steps');
        return undefined;
      }
      return this.include(s, index, problem);
    }
    if (s.params !== undefined)
      problem('params only applies to include steps (the params of the included scenario)');
    const kind =
      s.wait_until !== undefined
        ? 'wait'
        : s.advance !== undefined
          ? 'advance'
          : s.request
            ? 'request'
            : s.expect
              ? 'expect'
              : undefined;
    if (!kind) {
      problem('a step needs one of request, advance, wait_until, expect or include');
      return undefined;
    }
    if (s.advance !== undefined && kinds.length > 1) {
      problem(
        `advance cannot be combined with ${kinds.filter((k) => k !== 'advance').join(', ')}; use separate steps`,
      );
      return undefined;
    }
    if (kind === 'wait' && s.expect !== undefined) {
      problem('wait_until takes its conditions itself; put further checks in a following expect step');
    }
    if (kind !== 'wait') {
      for (const key of ['every', 'within', 'timeout', 'interval', 'max_tries'] as const) {
        if (s[key] !== undefined) problem(`${key} only applies to wait_until steps`);
      }
    }
    if (!s.request && (s.expect_status !== undefined || s.capture !== undefined)) {
      problem(
        `${s.expect_status !== undefined ? 'expect_status' : 'capture'} needs a request in the same step`,
      );
    }
    const name = s.name ?? defaultName(s);
    const expectStatus = s.expect_status === undefined ? [] : [s.expect_status].flat();

    if (kind === 'advance')
      return this.advance(s.advance as z.infer<typeof AdvanceFile>, index, name, problem);

    const request = s.request ? this.request(s.request, problem) : undefined;
    const capture = this.captures(s.capture ?? {}, problem);
    const inScope = new Set([...this.known, ...(request ? ['response'] : []), ...Object.keys(capture)]);
    if (kind === 'wait') {
      const until = this.conditions(s.wait_until ?? [], inScope, problem);
      this.waitBounds(s, problem);
      this.commit(capture);
      return {
        kind,
        index,
        name,
        until,
        ...(request ? { request } : {}),
        expectStatus,
        capture,
        ...pick(s, ['every', 'within', 'timeout', 'interval']),
        ...(s.max_tries !== undefined ? { maxTries: s.max_tries } : {}),
      };
    }
    const expect = this.conditions(s.expect ?? [], inScope, problem);
    this.commit(capture);
    if (kind === 'expect') return { kind, index, name, expect };
    return { kind, index, name, request: request as RequestSpec, expectStatus, capture, expect };
  }

  private include(s: StepFileShape, index: number, problem: (message: string) => void): Step | undefined {
    const name = s.include as string;
    for (const key of [
      'expect_status',
      'capture',
      'every',
      'within',
      'timeout',
      'interval',
      'max_tries',
    ] as const) {
      if (s[key] !== undefined) problem(`${key} does not apply to include steps`);
    }
    const found =
      this.options.include?.(name) ?? 'include needs the other scenario files: load the whole directory';
    if (typeof found === 'string') {
      problem(`include: ${found}`);
      return undefined;
    }
    const given = s.params ?? {};
    for (const [param, value] of Object.entries(given)) {
      if (!found.params.some((p) => p.name === param)) {
        problem(
          `params.${param}: scenario "${name}" has no param "${param}" (params: ${found.params.map((p) => p.name).join(', ') || 'none'})`,
        );
      }
      this.references(value, this.known, `params.${param}`, problem);
    }
    for (const spec of found.params) {
      if (spec.required && spec.default === undefined && given[spec.name] === undefined) {
        problem(`params.${spec.name}: scenario "${name}" requires it`);
      }
    }
    for (const exported of exportedNames(found)) this.known.add(exported);
    return { kind: 'include', index, name: s.name ?? `include ${name}`, scenario: found, params: given };
  }

  private advance(
    a: z.infer<typeof AdvanceFile>,
    index: number,
    name: string,
    problem: (message: string) => void,
  ): Step {
    const spec = typeof a === 'string' ? { by: a } : a;
    if ((spec.by === undefined) === (spec.to === undefined)) {
      problem('advance takes a duration (advance: 35d) or exactly one of {by: 35d} / {to: <date-time>}');
    }
    if (spec.plus !== undefined && spec.to === undefined)
      problem('advance.plus only applies with advance.to');
    for (const key of ['by', 'plus'] as const) {
      const value = spec[key];
      if (value !== undefined)
        this.duration(
          value,
          `advance${key === 'by' && typeof a === 'string' ? '' : `.${key}`}`,
          'clock',
          problem,
        );
    }
    if (spec.to !== undefined) {
      this.references(spec.to, this.known, 'advance.to', problem);
      if (!spec.to.includes('${') && Number.isNaN(Date.parse(spec.to))) {
        problem(`advance.to: "${spec.to}" is not a date (YYYY-MM-DD) or date-time`);
      }
    }
    return { kind: 'advance', index, name, ...spec };
  }

  private request(r: RequestFileShape, problem: (message: string) => void): RequestSpec {
    const inScope = this.known;
    this.references(r.path, inScope, 'request.path', problem);
    if (RUNS_PATH.test(r.path)) problem(`request.path: ${RUNS_HINT}`);
    if (r.body !== undefined) this.references(r.body, inScope, 'request.body', problem);
    if (r.headers) this.references(r.headers, inScope, 'request.headers', problem);
    if (r.body !== undefined && r.form !== undefined)
      problem('request takes a JSON body or a form, not both');
    for (const [field, value] of Object.entries(r.form ?? {})) {
      this.references(value, inScope, `request.form.${field}`, problem);
      if (typeof value === 'string' && value.startsWith('@')) {
        const name = value.slice(1);
        if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) {
          problem(`request.form.${field}: "${value}" must name a file of fixtures/, e.g. @sample.pdf`);
        } else if (this.fixturesDir && !existsSync(join(this.fixturesDir, name))) {
          problem(
            `request.form.${field}: fixtures/${name} does not exist (try @sample.pdf, @sample.jpg or @sample.png)`,
          );
        }
      }
    }
    return {
      method: r.method,
      path: r.path,
      ...(r.body !== undefined ? { body: r.body } : {}),
      ...(r.form ? { form: r.form } : {}),
      ...(r.headers ? { headers: r.headers } : {}),
    };
  }

  private captures(
    capture: Record<string, string>,
    problem: (message: string) => void,
  ): Record<string, string> {
    for (const [name, path] of Object.entries(capture)) {
      if ((RESERVED_NAMES as readonly string[]).includes(name)) {
        problem(`capture.${name}: "${name}" is reserved (${RESERVED_NAMES.join(', ')}); choose another name`);
      }
      const text = stripDollar(path);
      this.references(text, new Set([...this.known, 'response']), `capture.${name}`, problem);
      try {
        parsePath(`response.${text.replace(/\$\{[^}]*\}/g, '0')}`);
      } catch (error) {
        problem(
          `capture.${name}: ${(error as Error).message}; capture a part of the response like body or body.data[0]`,
        );
      }
    }
    return Object.fromEntries(Object.entries(capture).map(([name, path]) => [name, stripDollar(path)]));
  }

  private conditions(
    raw: string | string[],
    inScope: Set<string>,
    problem: (message: string) => void,
  ): Expression[] {
    return [raw].flat().flatMap((text) => {
      try {
        const expression = parseExpression(String(text));
        for (const side of [expression.left, expression.right]) {
          if (side.kind === 'literal') {
            if (typeof side.value === 'string') this.references(side.value, inScope, 'expect', problem);
            continue;
          }
          if (classifyWord(side.text, (root) => inScope.has(root)) === 'path') {
            if (!side.braced && (ALL_EVENT_TYPES as readonly string[]).includes(side.text)) {
              problem(
                `"${text}": ${side.text} reads the captured ${side.text.split('.')[0]}; write "${side.text}" (quoted) for the event type, or \${${side.text}} for the captured value`,
              );
            }
            this.checkPath(side.text, inScope, 'expect', problem);
          }
        }
        return [expression];
      } catch (error) {
        problem(`${(error as Error).message}`);
        return [];
      }
    });
  }

  private waitBounds(s: StepFileShape, problem: (message: string) => void): void {
    if (s.every !== undefined) {
      this.duration(s.every, 'every', 'clock', problem);
      if (s.within !== undefined) this.duration(s.within, 'within', 'clock', problem);
      for (const key of ['timeout', 'interval'] as const) {
        if (s[key] !== undefined)
          problem(`${key} is for real-time polling; with every, bound the wait with within`);
      }
    } else {
      if (s.within !== undefined)
        problem('within bounds clock advances; add every: <duration> (e.g. every: 1d)');
      if (s.timeout !== undefined) this.duration(s.timeout, 'timeout', 'real', problem);
      if (s.interval !== undefined) this.duration(s.interval, 'interval', 'real', problem);
    }
  }

  private duration(
    value: string,
    key: string,
    kind: 'clock' | 'real',
    problem: (message: string) => void,
  ): void {
    this.references(value, this.known, key, problem);
    if (value.includes('${')) return;
    const ms = kind === 'clock' ? clockDurationMs(value) : realDurationMs(value);
    // A zero interval is fine (repeat a request at once); every other duration must be positive.
    if (ms === undefined || (ms <= 0 && key !== 'interval')) {
      problem(`${key}: "${value}" is not ${kind === 'clock' ? CLOCK_DURATION_HINT : REAL_DURATION_HINT}`);
    }
  }

  /** Every ${…} must start at a name in scope; ${params.x} must be a declared param. */
  private references(
    template: unknown,
    inScope: Set<string>,
    where: string,
    problem: (message: string) => void,
  ): void {
    for (const ref of placeholders(template)) {
      for (const option of alternatives(ref)) {
        if (fallbackLiteral(option) === undefined) this.checkPath(option, inScope, where, problem, true);
      }
    }
  }

  private checkPath(
    text: string,
    inScope: Set<string>,
    where: string,
    problem: (message: string) => void,
    placeholder = false,
  ): void {
    const shown = placeholder ? `\${${text}}` : text;
    let root: string;
    let first: string | undefined;
    try {
      const path = parsePath(text.replace(/\$\{[^}]*\}/g, '0'));
      root = path.root;
      first = path.segments[0]?.kind === 'key' ? path.segments[0].name : undefined;
    } catch (error) {
      problem(`${where}: ${shown}: ${(error as Error).message}`);
      return;
    }
    if (!inScope.has(root)) {
      const known = [...inScope].filter((n) => n !== 'random' && n !== 'run').join(', ');
      problem(`${where}: ${shown} uses "${root}", which no earlier step captured (in scope: ${known})`);
    } else if (root === 'params' && !this.params.some((p) => p.name === first)) {
      problem(
        `${where}: ${shown}: no param "${first ?? ''}" (declared: ${this.params.map((p) => p.name).join(', ') || 'none'})`,
      );
    } else if (root === 'random' && !(RANDOM_NAMES as readonly string[]).includes(first ?? '')) {
      problem(`${where}: ${shown}: random offers ${RANDOM_NAMES.map((n) => `random.${n}`).join(', ')}`);
    }
    if (text.includes('${')) this.references(text, inScope, where, problem);
  }

  private commit(capture: Record<string, string>): void {
    for (const name of Object.keys(capture)) this.known.add(name);
  }
}

const STEP_KEYS = [...Object.keys(StepFile.shape), 'chaos', 'snapshot', 'restore'];

/** A request step may not start a scenario run (a run inside a run could recurse without end). */
export const RUNS_PATH = /^\/v3\/sandbox\/scenarios\b/;
export const RUNS_HINT =
  'a scenario cannot call /v3/sandbox/scenarios; use `include: <scenario>` to run another one';

/** The names a scenario leaves in scope for the scenario that includes it: every capture. */
export function exportedNames(scenario: Scenario): string[] {
  const names = new Set<string>();
  for (const step of scenario.steps) {
    if (step.kind === 'request' || step.kind === 'wait')
      for (const name of Object.keys(step.capture)) names.add(name);
    if (step.kind === 'include') for (const name of exportedNames(step.scenario)) names.add(name);
  }
  return [...names];
}

function stripDollar(path: string): string {
  return path.trim().replace(/^\$\.?/, '') || 'body';
}

function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

function defaultName(s: StepFileShape): string {
  if (s.include !== undefined) return `include ${s.include}`;
  if (s.wait_until !== undefined) return `wait until ${[s.wait_until].flat().join(' and ')}`;
  if (s.advance !== undefined) {
    if (typeof s.advance === 'string') return `advance ${s.advance}`;
    return s.advance.to !== undefined
      ? `advance to ${s.advance.to}${s.advance.plus ? ` + ${s.advance.plus}` : ''}`
      : `advance ${s.advance.by ?? ''}`;
  }
  if (s.request) return `${s.request.method} ${s.request.path}`;
  return `expect ${[s.expect ?? []].flat().join(' and ')}`;
}

/** A zod issue as a sentence: where in the file, then what is wrong (unknown keys get a suggestion). */
function issueMessage(issue: z.core.$ZodIssue, allowedKeys?: string[]): string {
  const at = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys
      .map((key) => {
        const hint = allowedKeys ? closest(key, allowedKeys) : undefined;
        return `${at ? `${at}: ` : ''}unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}`;
      })
      .join('; ');
  }
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  const message = missing ? 'is required' : issue.message;
  return `${at || 'file'}: ${message}`;
}

function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const candidate of candidates) {
    const d = distance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

// Levenshtein distance, small strings only.
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j] as number;
      row[j] = Math.min(current + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] as number;
}
