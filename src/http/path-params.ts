import { ApiError } from '../domain/errors.js';

/**
 * The one rule for a path parameter that cannot name anything (an id holding NUL; an id failing
 * its route's pattern, where a route checks one): it answers 404 `resource_not_found`, exactly
 * like an id that does not exist — on every route, so endpoints whose status table has no 400
 * (GET /customers/{id}, GET /credit-offers/{id}, biometrics) answer from their table. `where`
 * names the parameter (or `path` when the segment is not known).
 */
export function impossibleId(where: string, problem: string): ApiError {
  return new ApiError(
    'resource_not_found',
    `Nothing exists at this address for this partner: the ${where} ${problem}, which no id does. Check the id in the path.`,
    { param: where },
  );
}
