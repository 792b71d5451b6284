/**
 * The closed set of error codes the sandbox answers with, and the one table that maps each code to
 * its HTTP status and title. Domain code throws `ApiError`; the HTTP layer renders it as
 * application/problem+json. The rows live in one file per area (`error-catalog-*.ts`); adding a code
 * means adding its row there and its line here, in status order (the typecheck fails otherwise).
 */
import { AUTH_ERRORS } from './error-catalog-auth.js';
import { CREDIT_ERRORS } from './error-catalog-credit.js';
import { CUSTOMER_ERRORS } from './error-catalog-customers.js';
import type { ErrorCatalogEntry } from './error-catalog-entry.js';
import { HTTP_ERRORS } from './error-catalog-http.js';
import { SANDBOX_ERRORS } from './error-catalog-sandbox.js';
import { WEBHOOK_ERRORS } from './error-catalog-webhooks.js';

/** Every code the area catalogs declare: the composed catalog must list each, and nothing else. */
type AreaCode =
  | keyof typeof AUTH_ERRORS
  | keyof typeof CUSTOMER_ERRORS
  | keyof typeof CREDIT_ERRORS
  | keyof typeof WEBHOOK_ERRORS
  | keyof typeof SANDBOX_ERRORS
  | keyof typeof HTTP_ERRORS;

/** The whole catalog, in the order the problem index and the OpenAPI enum list it (by status). */
export const ERROR_CATALOG = {
  // 400: the request is malformed (shape, type, missing field, unknown enum value, bad query).
  malformed_json: HTTP_ERRORS.malformed_json,
  validation_failed: HTTP_ERRORS.validation_failed,
  unsupported_charset: HTTP_ERRORS.unsupported_charset,
  json_too_deep: HTTP_ERRORS.json_too_deep,
  request_timeout: HTTP_ERRORS.request_timeout,
  invalid_cursor: HTTP_ERRORS.invalid_cursor,
  unsupported_content_type: HTTP_ERRORS.unsupported_content_type,
  body_too_large: HTTP_ERRORS.body_too_large,
  unknown_provider_state: SANDBOX_ERRORS.unknown_provider_state,
  unsupported_grant_type: AUTH_ERRORS.unsupported_grant_type,
  // 401: who is calling could not be established.
  authentication_required: AUTH_ERRORS.authentication_required,
  invalid_token: AUTH_ERRORS.invalid_token,
  token_expired: AUTH_ERRORS.token_expired,
  invalid_client: AUTH_ERRORS.invalid_client,
  partner_expired: AUTH_ERRORS.partner_expired,
  partner_deleted: AUTH_ERRORS.partner_deleted,
  // 404 / 405: nothing answers at that address.
  partner_signup_disabled: AUTH_ERRORS.partner_signup_disabled,
  partner_protected: SANDBOX_ERRORS.partner_protected,
  resource_not_found: HTTP_ERRORS.resource_not_found,
  route_not_found: HTTP_ERRORS.route_not_found,
  scenario_not_found: SANDBOX_ERRORS.scenario_not_found,
  method_not_allowed: HTTP_ERRORS.method_not_allowed,
  // 409: the request conflicts with the resource's current state.
  customer_exists: CUSTOMER_ERRORS.customer_exists,
  kyc_completed: CUSTOMER_ERRORS.kyc_completed,
  biometrics_already_approved: CUSTOMER_ERRORS.biometrics_already_approved,
  no_biometrics_session: CUSTOMER_ERRORS.no_biometrics_session,
  invalid_kyc_transition: CUSTOMER_ERRORS.invalid_kyc_transition,
  invalid_loan_transition: CREDIT_ERRORS.invalid_loan_transition,
  // 413 / 415: the body cannot be read as sent.
  payload_too_large: HTTP_ERRORS.payload_too_large,
  unsupported_media_type: HTTP_ERRORS.unsupported_media_type,
  file_too_large: CUSTOMER_ERRORS.file_too_large,
  // 422: well-formed, refused by a rule.
  invalid_cpf: CUSTOMER_ERRORS.invalid_cpf,
  invalid_cnpj: CUSTOMER_ERRORS.invalid_cnpj,
  immutable_field: CUSTOMER_ERRORS.immutable_field,
  document_type_not_required: CUSTOMER_ERRORS.document_type_not_required,
  kyc_item_not_accepting: CUSTOMER_ERRORS.kyc_item_not_accepting,
  kyc_type_not_applicable: CUSTOMER_ERRORS.kyc_type_not_applicable,
  unsupported_file_type: CUSTOMER_ERRORS.unsupported_file_type,
  request_too_large: HTTP_ERRORS.request_too_large,
  empty_file: CUSTOMER_ERRORS.empty_file,
  webhook_url_not_allowed: WEBHOOK_ERRORS.webhook_url_not_allowed,
  unknown_event_pattern: WEBHOOK_ERRORS.unknown_event_pattern,
  webhook_endpoint_disabled: WEBHOOK_ERRORS.webhook_endpoint_disabled,
  too_many_previous_secrets: WEBHOOK_ERRORS.too_many_previous_secrets,
  credit_offer_expired: CREDIT_ERRORS.credit_offer_expired,
  credit_offer_already_accepted: CREDIT_ERRORS.credit_offer_already_accepted,
  amount_out_of_range: CREDIT_ERRORS.amount_out_of_range,
  installment_count_out_of_range: CREDIT_ERRORS.installment_count_out_of_range,
  simulation_superseded: CREDIT_ERRORS.simulation_superseded,
  simulation_offer_mismatch: CREDIT_ERRORS.simulation_offer_mismatch,
  loan_terms_mismatch: CREDIT_ERRORS.loan_terms_mismatch,
  loan_not_active: CREDIT_ERRORS.loan_not_active,
  installment_not_found: CREDIT_ERRORS.installment_not_found,
  installment_already_paid: CREDIT_ERRORS.installment_already_paid,
  payment_exceeds_outstanding: CREDIT_ERRORS.payment_exceeds_outstanding,
  customer_not_active: CREDIT_ERRORS.customer_not_active,
  invalid_offer_terms: CREDIT_ERRORS.invalid_offer_terms,
  idempotency_key_reused: HTTP_ERRORS.idempotency_key_reused,
  clock_backwards: SANDBOX_ERRORS.clock_backwards,
  clock_jump_too_large: SANDBOX_ERRORS.clock_jump_too_large,
  partner_limit_reached: SANDBOX_ERRORS.partner_limit_reached,
  quota_exceeded: SANDBOX_ERRORS.quota_exceeded,
  too_many_fault_rules: SANDBOX_ERRORS.too_many_fault_rules,
  fault_rule_unbounded: SANDBOX_ERRORS.fault_rule_unbounded,
  snapshot_exists: SANDBOX_ERRORS.snapshot_exists,
  snapshot_ids_taken: SANDBOX_ERRORS.snapshot_ids_taken,
  snapshot_limit_reached: SANDBOX_ERRORS.snapshot_limit_reached,
  snapshot_invalid: SANDBOX_ERRORS.snapshot_invalid,
  // 429 / 500.
  rate_limited: HTTP_ERRORS.rate_limited,
  too_many_connections: HTTP_ERRORS.too_many_connections,
  provider_state_failed: SANDBOX_ERRORS.provider_state_failed,
  scenario_files_invalid: SANDBOX_ERRORS.scenario_files_invalid,
  instance_unavailable: HTTP_ERRORS.instance_unavailable,
  write_failed: HTTP_ERRORS.write_failed,
  storage_unavailable: HTTP_ERRORS.storage_unavailable,
  bad_gateway: HTTP_ERRORS.bad_gateway,
  service_unavailable: HTTP_ERRORS.service_unavailable,
  gateway_timeout: HTTP_ERRORS.gateway_timeout,
  internal_error: HTTP_ERRORS.internal_error,
  // 507: the instance has no room left to keep it.
  snapshot_storage_full: SANDBOX_ERRORS.snapshot_storage_full,
} as const satisfies Record<AreaCode, ErrorCatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** One field-level problem inside `errors[]`. */
export interface FieldError {
  param: string;
  detail: string;
  code?: string;
}

export interface ApiErrorOptions {
  param?: string;
  errors?: FieldError[];
  /** Extra response headers (e.g. Retry-After on 429). */
  headers?: Record<string, string>;
  /**
   * The status to answer instead of the code's own: only for an endpoint whose status table (the
   * spec's) lacks the code's status (see `withStatus`; `storage_unavailable` is 500 there).
   */
  status?: number;
}

/** A refusal that the HTTP layer renders as a problem document. `detail` says what failed and how to fix it. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly param: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
    const status = options.status ?? ERROR_CATALOG[code].status;
    // A refusal is an answer, not a fault: nothing reads its stack, and capturing one costs more
    // than the rest of a 404 (4–5 µs a frame walk here, several times that under load). A 5xx
    // keeps its stack for the log.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.title = ERROR_CATALOG[code].title;
    this.param = options.param;
    this.errors = options.errors;
    this.headers = options.headers;
  }

  /** The same problem (code, detail, param, errors, headers) answered with another status. */
  withStatus(status: number): ApiError {
    const options: ApiErrorOptions = { status };
    if (this.param !== undefined) options.param = this.param;
    if (this.errors !== undefined) options.errors = this.errors;
    if (this.headers !== undefined) options.headers = this.headers;
    return new ApiError(this.code, this.message, options);
  }
}

/** The standard 404 for an id that does not exist for this partner (including another partner's id). */
export function notFound(resource: string, id: string): ApiError {
  return new ApiError('resource_not_found', `No ${resource} with id "${id}" exists for this partner.`);
}
