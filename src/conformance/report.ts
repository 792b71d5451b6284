// The report (`--report`, `--json`): one JSON document, its format documented in
// docs/conformance.md and validated by a JSON Schema in the tests.
import type { Difference } from '../drift/structural-diff.js';
import type { RunOutcome } from './runner.js';
import type { CheckResult, Mode } from './types.js';

export interface CompareSection {
  target: string;
  mode: Mode;
  /** Each distinct difference once, with where it was seen first and how often. */
  differences: Array<Difference & { request: string; check: string; count: number }>;
  /** The second target's own verdicts. */
  summary: Summary;
}

export interface Summary {
  pass: number;
  fail: number;
  skip: number;
}

export interface Report {
  format: 'credit-sandbox-conformance';
  version: 1;
  target: string;
  mode: Mode;
  started_at: string;
  finished_at: string;
  summary: Summary;
  checks: CheckResult[];
  compare?: CompareSection;
}

export function summarise(results: readonly CheckResult[]): Summary {
  const summary: Summary = { pass: 0, fail: 0, skip: 0 };
  for (const result of results) summary[result.status] += 1;
  return summary;
}

export function buildReport(outcome: RunOutcome, compare?: CompareSection): Report {
  const report: Report = {
    format: 'credit-sandbox-conformance',
    version: 1,
    target: outcome.target,
    mode: outcome.mode,
    started_at: outcome.startedAt,
    finished_at: outcome.finishedAt,
    summary: summarise(outcome.results),
    checks: outcome.results,
  };
  if (compare) report.compare = compare;
  return report;
}

/** One line per check for a person: `PASS  customers.create.location  title` (+ the reason). */
export function resultLine(result: CheckResult): string {
  const tag = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' }[result.status];
  const why = result.status === 'pass' ? '' : ` — ${result.reason ?? ''}`;
  return `${tag}  ${result.id}  ${result.title}${why}`;
}
