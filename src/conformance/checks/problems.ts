// The problem format ("Errors"): every error answer is `application/problem+json` with `type`,
// `title`, `status` (the HTTP status) and `detail`, and `errors[]` items with `param` and `detail`.
import { mediaType } from '../../drift/structural-diff.js';
import type { Answer } from '../http.js';
import { Problem } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import { expectEqual, expectTrue } from '../verdict.js';

export function expectProblem(answer: Answer, status = answer.status): Record<string, unknown> {
  const type = mediaType(answer.headers['content-type']);
  expectTrue(
    type === 'application/problem+json',
    `a ${answer.status} answer is not application/problem+json`,
    'application/problem+json',
    type ?? '(none)',
    answer,
  );
  const problem = expectShape(Problem, answer.body, 'problem', answer);
  expectEqual(problem.status, status, 'the problem `status` is the HTTP status', answer);
  expectTrue(problem.type.length > 0, 'the problem `type` is empty', 'a URI', problem.type, answer);
  return problem;
}
