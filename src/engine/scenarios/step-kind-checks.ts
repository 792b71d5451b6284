// The checks of each step kind's own keys: include, advance, request, capture, conditions, wait bounds.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { ALL_EVENT_TYPES } from '../event-types.js';
import { classifyWord, type Expression, parseExpression } from './expressions.js';
import { parsePath } from './paths.js';
import { type AdvanceFile, RESERVED_NAMES, type RequestFileShape, type StepFileShape } from './schema.js';
import { ReferenceChecker } from './step-references.js';
import type { RequestSpec, Scenario, Step } from './types.js';

/** The per-kind checks StepChecker dispatches to; each reports problems and returns the built part. */
export class StepKindChecks extends ReferenceChecker {
  protected include(s: StepFileShape, index: number, problem: (message: string) => void): Step | undefined {
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

  protected advance(
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

  protected request(r: RequestFileShape, problem: (message: string) => void): RequestSpec {
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

  protected captures(
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

  protected conditions(
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

  protected waitBounds(s: StepFileShape, problem: (message: string) => void): void {
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
}

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
