// Loading scenario files: one file or whole directories (includes resolved), YAML parsed and checked.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, relative } from 'node:path';
import { parseParams } from './load-params.js';
import { issueMessage, ScenarioFileError } from './load-problems.js';
import type { LoadOptions, ScenarioProblem } from './load-types.js';
import { providerStateClashes } from './provider-states.js';
import { ScenarioFile } from './schema.js';
import { StepChecker } from './step-checker.js';
import type { Scenario } from './types.js';

/**
 * The YAML parser, loaded with the first scenario file read: a server answers its first request
 * without it (its CommonJS build is ~70 files, a good part of a start's module loading).
 */
let yaml: typeof import('yaml') | undefined;
function loadYaml(): typeof import('yaml') {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml;
}

export { coerceParam } from './load-params.js';
export { formatProblem, ScenarioFileError } from './load-problems.js';
export type { LoadOptions, ScenarioProblem } from './load-types.js';
export { exportedNames, RUNS_HINT, RUNS_PATH } from './step-kind-checks.js';

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
  const { LineCounter, parseDocument } = loadYaml();
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
