// One scenario step checked and built: desugaring, the step-file schema, then the kind's own checks.
import type { z } from 'zod';
import { desugarChaosStep } from './chaos-step.js';
import { desugarFaultStep } from './fault-step.js';
import { issueMessage } from './load-problems.js';
import { parsePath } from './paths.js';
import { type AdvanceFile, StepFile, type StepFileShape } from './schema.js';
import { desugarSnapshotStep } from './snapshot-step.js';
import { StepKindChecks } from './step-kind-checks.js';
import type { RequestSpec, Step } from './types.js';

/** Checks each step in order, tracking the names captured so far. */
export class StepChecker extends StepKindChecks {
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
}

const STEP_KEYS = [...Object.keys(StepFile.shape), 'chaos', 'snapshot', 'restore'];

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
