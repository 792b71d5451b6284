// The scope checks every step kind shares: placeholders, paths, durations and the names captured so far.
import { CLOCK_DURATION_HINT, clockDurationMs, REAL_DURATION_HINT, realDurationMs } from './durations.js';
import type { LoadOptions, ScenarioProblem } from './load-types.js';
import { parsePath } from './paths.js';
import { alternatives, fallbackLiteral, placeholders, RANDOM_NAMES } from './scope.js';
import type { ParamSpec } from './types.js';

/** Tracks the names in scope while a file's steps are checked, and checks references against them. */
export class ReferenceChecker {
  protected readonly known = new Set<string>(['params', 'run', 'random']);

  protected readonly fixturesDir: string | undefined;

  constructor(
    protected readonly file: string,
    protected readonly params: ParamSpec[],
    protected readonly options: LoadOptions,
    protected readonly problems: ScenarioProblem[],
  ) {
    this.fixturesDir = options.fixturesDir;
  }

  protected duration(
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
  protected references(
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

  protected checkPath(
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

  protected commit(capture: Record<string, string>): void {
    for (const name of Object.keys(capture)) this.known.add(name);
  }
}
