// Problems of scenario files as sentences: the error that lists them, zod issues, "did you mean" hints.
import type { z } from 'zod';
import type { ScenarioProblem } from './load-types.js';

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

/** A zod issue as a sentence: where in the file, then what is wrong (unknown keys get a suggestion). */
export function issueMessage(issue: z.core.$ZodIssue, allowedKeys?: string[]): string {
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
