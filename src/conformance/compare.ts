// `--compare`: the same checks, with the same seed, against a second target; every structural
// difference between the two runs' answers (status, error code, fields, JSON types, enum values,
// Location and Retry-After presence, media type) and event sequences, each distinct one once.
import { type Difference, diffAnswers, diffEventTypes } from '../drift/structural-diff.js';
import type { Answer } from './http.js';
import type { CompareSection } from './report.js';
import { summarise } from './report.js';
import type { RunOutcome } from './runner.js';

/** Calls to the control API and the token endpoint are how the kit drives a run, not what it judges. */
function compared(answer: Answer): boolean {
  return !answer.label.includes(' /sandbox/') && answer.label !== 'POST /auth/token';
}

export function compareRuns(left: RunOutcome, right: RunOutcome): CompareSection {
  const enumValues = new Set([...left.enumValues, ...right.enumValues]);
  const found = new Map<string, CompareSection['differences'][number]>();
  const add = (check: string, request: string, difference: Difference) => {
    const at = difference.at.replace(/\[\d+\]/g, '[*]');
    const key = [request, at, difference.kind, difference.expected, difference.actual].join('\u0000');
    const seen = found.get(key);
    if (seen) seen.count += 1;
    else found.set(key, { ...difference, at, request, check, count: 1 });
  };
  // Every check and every journey (shared set-ups are recorded under `journey.<name>`).
  const scopes = [
    ...new Set([
      ...left.results.map((r) => r.id),
      ...left.recorder.scopeNames(),
      ...right.recorder.scopeNames(),
    ]),
  ].filter((scope) => scope !== '(run)');
  for (const scope of scopes) {
    const result = { id: scope };
    const a = left.recorder.exchanges(result.id).filter(compared);
    const b = right.recorder.exchanges(result.id).filter(compared);
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      const y = b[i];
      if (x && y && x.label !== y.label) {
        add(result.id, x.label, {
          at: `request #${i + 1}`,
          kind: 'unexpected',
          expected: x.label,
          actual: y.label,
        });
        break; // the two runs took different paths: what follows would pair unrelated answers
      }
      if (!x || !y) {
        const label = (x ?? y)?.label ?? '?';
        add(result.id, label, {
          at: `request #${i + 1}`,
          kind: x ? 'missing' : 'unexpected',
          expected: x ? 'sent' : 'not sent',
          actual: y ? 'sent' : 'not sent',
        });
        break;
      }
      for (const difference of diffAnswers(x, y, { enumValues })) add(result.id, x.label, difference);
    }
    for (const difference of diffEventTypes(
      left.recorder.events(result.id),
      right.recorder.events(result.id),
    )) {
      add(result.id, 'webhook deliveries', difference);
    }
  }
  return {
    target: right.target,
    mode: right.mode,
    differences: [...found.values()],
    summary: summarise(right.results),
  };
}
