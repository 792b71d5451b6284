/**
 * An error the lower floors (engine, store) throw with one of the API's error codes, without
 * knowing the API's catalog of statuses and titles: the HTTP layer turns it into its problem
 * (`toApiError` in http/error-answer.ts). Domain code throws `ApiError` directly.
 */
export class CodedError extends Error {
  override name = 'CodedError';

  constructor(
    readonly code: string,
    detail: string,
    readonly param?: string,
  ) {
    super(detail);
  }
}
