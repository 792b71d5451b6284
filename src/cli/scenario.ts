import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { ApiCallError, describe, type SandboxClient } from './client.js';
import { action, EXIT, FailedError, type Output, UsageError } from './context.js';
import { registerScenarioFromRecording } from './scenario-from-recording.js';

interface ScenarioParam {
  name: string;
  type: string;
  description: string | null;
  default: string | number | boolean | null;
  required: boolean;
  example: string | number | boolean | null;
}

interface ScenarioInfo {
  name: string;
  description: string;
  params: ScenarioParam[];
  steps: number;
}

interface StepResult {
  index: number;
  name: string;
  kind: string;
  status: 'passed' | 'failed' | 'skipped';
  detail: string;
  response?: { status: number; body: unknown };
}

interface RunResult {
  scenario: string;
  status: 'passed' | 'failed';
  params: Record<string, unknown>;
  steps: StepResult[];
  failed_step?: { index: number; name: string; detail: string };
  captured: Record<string, unknown>;
}

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;

/** `scenario list | run <name> [--param k=v] | validate <files…>`. */
export function registerScenario(program: Command): void {
  const scenario = program
    .command('scenario')
    .description('run ready-made scenarios (scenarios/*.yaml) on the sandbox');

  scenario
    .command('list')
    .description('the scenarios the sandbox can run, with their params')
    .action(
      action(async ({ client, out }) => {
        const list = await client.call<{ data: ScenarioInfo[] }>('GET', '/v3/sandbox/scenarios');
        out.result(list.data, () => list.data.flatMap(describeScenario));
        return undefined;
      }),
    );

  scenario
    .command('run')
    .argument('<names...>', 'one or more scenario names (see `scenario list`), run one after the other')
    .option(
      '-p, --param <key=value>',
      'a param (repeatable); each scenario takes the params it declares',
      collect,
      [],
    )
    .option('-v, --verbose', 'print the API response of every step')
    .description('run scenarios against your partner; exits 1 when a step fails')
    .action(
      action(async ({ client, out }, names: string[], opts: { param: string[]; verbose?: boolean }) => {
        const given = parseParams(opts.param);
        const declared = await declaredParams(client, names, given);
        const runs: RunResult[] = [];
        for (const [k, name] of names.entries()) {
          const params = Object.fromEntries(
            Object.entries(given).filter(([key]) => declared.get(name)?.has(key)),
          );
          const run = await runOne(
            client,
            out,
            name,
            params,
            names.length > 1 ? ` (${k + 1}/${names.length})` : '',
          );
          runs.push(run.result);
          // Several scenarios: one line per passing run, the steps of failing ones (all with --verbose).
          const full = names.length === 1 || run.result.status === 'failed' || Boolean(opts.verbose);
          if (!out.json) {
            out.result(run.result, () =>
              full
                ? describeRun(run.result, run.seconds, Boolean(opts.verbose))
                : summaryLine(run.result, run.seconds),
            );
          }
        }
        const failed = runs.filter((run) => run.status === 'failed');
        const status = failed.length === 0 ? 'passed' : 'failed';
        if (out.json) out.result({ status, runs }, () => '');
        else if (names.length > 1) {
          out.result(null, () =>
            failed.length === 0
              ? `all ${runs.length} scenarios passed`
              : `${failed.length} of ${runs.length} scenarios failed: ${failed.map((run) => run.scenario).join(', ')}`,
          );
        }
        return status === 'passed' ? EXIT.ok : EXIT.failed;
      }),
    );

  scenario
    .command('validate')
    .argument('<files...>', 'scenario files (YAML)')
    .description(
      'check scenario files locally (no server needed); includes resolve against the same directory and the shipped scenarios',
    )
    .action(action(async ({ out }, files: string[]) => validate(files, out)));

  registerScenarioFromRecording(scenario);
}

async function validate(files: string[], out: Output): Promise<number> {
  // Loaded here: only this subcommand needs the engine.
  const { SHIPPED_SCENARIOS_DIR, FIXTURES_DIR } = await import('../engine/scenarios/catalog.js');
  const { formatProblem, loadScenarioDirs, ScenarioFileError } = await import('../engine/scenarios/load.js');
  for (const file of files) {
    if (!/\.ya?ml$/.test(file)) throw new UsageError(`${file}: scenario files end in .yaml or .yml`);
  }
  const given = new Set(files.map((file) => resolve(file)));
  const dirs = [...new Set([resolve(SHIPPED_SCENARIOS_DIR), ...files.map((file) => resolve(dirname(file)))])];
  let problems: string[] = [];
  try {
    loadScenarioDirs(dirs, { fixturesDir: FIXTURES_DIR });
  } catch (error) {
    if (!(error instanceof ScenarioFileError)) throw error;
    // Only the files asked about (a broken file they include shows up as their own problem).
    problems = error.problems
      .filter((problem) => given.has(resolve(problem.file.replace(/:\d+:\d+$/, ''))))
      .map(formatProblem);
  }
  const bad = new Set(problems.map((problem) => problem.split(':')[0]));
  const valid = files.filter(
    (file) => ![...bad].some((b) => b !== undefined && resolve(b) === resolve(file)),
  );
  out.result({ valid, problems }, () => [
    ...valid.map((file) => `✓ ${file}`),
    ...problems.map((p) => `✗ ${p}`),
  ]);
  if (problems.length > 0)
    throw new FailedError(`${problems.length} problem${problems.length === 1 ? '' : 's'} in scenario files`);
  return EXIT.ok;
}

/** Checks the names and params before running anything: a typo fails fast (exit 2). */
async function declaredParams(
  client: SandboxClient,
  names: string[],
  given: Record<string, string>,
): Promise<Map<string, Set<string>>> {
  const list = await client.call<{ data: ScenarioInfo[] }>('GET', '/v3/sandbox/scenarios');
  const byName = new Map(list.data.map((s) => [s.name, new Set(s.params.map((p) => p.name))]));
  const unknown = names.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `Unknown scenario${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}. Available: ${[...byName.keys()].sort().join(', ')}.`,
    );
  }
  for (const key of Object.keys(given)) {
    if (!names.some((name) => byName.get(name)?.has(key))) {
      const takes = names.map((name) => {
        const params = [...(byName.get(name) ?? [])];
        return `${name} takes ${params.length ? params.join(', ') : 'no params'}`;
      });
      throw new UsageError(
        `--param ${key}: none of ${names.join(', ')} has a param "${key}" (${takes.join('; ')})`,
      );
    }
  }
  return byName;
}

async function runOne(
  client: SandboxClient,
  out: Output,
  name: string,
  params: Record<string, string>,
  counter: string,
): Promise<{ result: RunResult; seconds: string }> {
  const started = performance.now();
  out.progress(`running scenario ${name}${counter}…`);
  // The run is one synchronous request; say that it is still going on long runs.
  const ticker = setInterval(
    () => out.progress(`  … ${name} still running (${Math.round((performance.now() - started) / 1000)} s)`),
    5000,
  );
  try {
    const result = await client.call<RunResult>(
      'POST',
      `/v3/sandbox/scenarios/${encodeURIComponent(name)}/runs`,
      {
        body: { params },
      },
    );
    return { result, seconds: ((performance.now() - started) / 1000).toFixed(1) };
  } catch (error) {
    // A bad --param value is a usage error (exit 2), not a failed run.
    if (error instanceof ApiCallError && (error.response.status === 404 || error.response.status === 400)) {
      throw new UsageError(describe(error.response));
    }
    throw error;
  } finally {
    clearInterval(ticker);
  }
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseParams(pairs: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param takes key=value, got "${pair}"`);
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return params;
}

function describeScenario(s: ScenarioInfo): string[] {
  const lines = [`${s.name}  (${s.steps} steps)`, `    ${s.description}`];
  for (const p of s.params) {
    const value = p.required ? 'required' : `default ${JSON.stringify(p.default)}`;
    lines.push(`    --param ${p.name}=<${p.type}>  ${value}${p.description ? ` — ${p.description}` : ''}`);
  }
  lines.push('');
  return lines;
}

function describeRun(run: RunResult, seconds: string, verbose: boolean): string[] {
  const lines = run.steps.map((step) => {
    const line = `${MARK[step.status]} ${String(step.index).padStart(2)} ${step.name}${step.status === 'skipped' ? ' (skipped)' : ''}`;
    const detail = step.status === 'skipped' ? [] : [`      ${step.detail}`];
    const response =
      verbose && step.response
        ? [`      response ${step.response.status}: ${JSON.stringify(step.response.body)}`]
        : [];
    return [line, ...detail, ...response].join('\n');
  });
  const ids = capturedIds(run.captured);
  return [...lines, '', ...(ids.length ? [`captured: ${ids.join(', ')}`] : []), summaryLine(run, seconds)];
}

/** `customer cust_…, loan ln_…`: the captured objects that have an id (all of them with --json). */
function capturedIds(captured: Record<string, unknown> | undefined): string[] {
  return Object.entries(captured ?? {}).flatMap(([name, value]) =>
    value !== null && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
      ? [`${name} ${(value as { id: string }).id}`]
      : [],
  );
}

function summaryLine(run: RunResult, seconds: string): string {
  if (run.status === 'passed') return `PASSED ${run.scenario}: ${run.steps.length} steps in ${seconds} s`;
  const detail = run.failed_step?.detail ?? '';
  const at = `FAILED ${run.scenario} at step ${run.failed_step?.index} ("${run.failed_step?.name}")`;
  const exists = / 409 customer_exists: /.test(detail) && /\bcpf\b/.test(detail);
  // A fixed (magic) CPF is registered once per partner: say so in one line, not the include chain.
  return exists
    ? `${at}: this partner already has a customer with the scenario's CPF (an earlier run registered it). Start over with \`credit-sandbox reset --yes\` (it wipes this partner's data), or use another partner.`
    : `${at}: ${detail}`;
}
