/**
 * The closed set of error codes the sandbox answers with, and the one table that maps each code to
 * its HTTP status and title. Domain code throws `ApiError`; the HTTP layer renders it as
 * application/problem+json. Adding a code means adding a row here, nowhere else.
 */
export const ERROR_CATALOG = {
  // 400: the request is malformed (shape, type, missing field, unknown enum value, bad query).
  malformed_json: {
    status: 400,
    title: 'Malformed JSON body',
    help: 'The body could not be parsed as JSON. Send a valid JSON document with `Content-Type: application/json`.',
  },
  validation_failed: {
    status: 400,
    title: 'Request validation failed',
    help: 'A field or parameter is missing, has the wrong type, or is not one of the allowed values. `errors[]` lists each problem with its `param`.',
  },
  unsupported_charset: {
    status: 400,
    title: 'Unsupported charset',
    help: 'Request bodies are read as UTF-8 only. Send `Content-Type: application/json` (or `; charset=utf-8`) and encode the body as UTF-8.',
  },
  json_too_deep: {
    status: 400,
    title: 'JSON nested too deeply',
    help: 'The JSON body nests arrays and objects deeper than the sandbox reads (64 levels). No endpoint needs more than a few.',
  },
  invalid_cursor: {
    status: 400,
    title: 'Invalid pagination cursor',
    help: '`starting_after` must be the id of an item of the same list (same filters). Pass the `id` of the last item of the previous page.',
  },
  unsupported_content_type: {
    status: 400,
    title: 'Content-Type not accepted',
    help: "The operation takes another body format: JSON bodies need `Content-Type: application/json`, document uploads `multipart/form-data`. (Operations of the spec's status table answer 400; others 415 `unsupported_media_type`.)",
  },
  body_too_large: {
    status: 400,
    title: 'Request body too large',
    help: "The request body is over the 16 MiB the sandbox reads. (Operations of the spec's status table answer 400; others 413 `payload_too_large`.)",
  },
  unknown_provider_state: {
    status: 400,
    title: 'Unknown provider state',
    help: 'No scenario file declares this Pact provider state. The detail lists the states that exist; declare more with `provider_states: [...]` in a scenario file (docs/pact.md).',
  },
  unsupported_grant_type: {
    status: 400,
    title: 'Unsupported grant type',
    help: 'The token endpoint only supports `grant_type=client_credentials` (or no body at all).',
  },
  // 401: who is calling could not be established.
  authentication_required: {
    status: 401,
    title: 'Authentication required',
    help: 'Send `Authorization: Bearer <access_token>`. Obtain a token from `POST /v3/auth/token` with HTTP Basic `client_id:client_secret`.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid access token',
    help: 'The bearer token is not one this sandbox issued (bad format, bad signature or unsupported algorithm). Request a new token from `POST /v3/auth/token`.',
  },
  token_expired: {
    status: 401,
    title: 'Access token expired',
    help: 'Access tokens live 3600 seconds of the partner clock. Advancing the clock past `exp` expires them too: request a new token.',
  },
  invalid_client: {
    status: 401,
    title: 'Invalid client credentials',
    help: 'The HTTP Basic credentials are unknown, malformed or revoked. Check `client_id` and `client_secret`, or create a new credential.',
  },
  // 404 / 405: nothing answers at that address.
  partner_signup_disabled: {
    status: 403,
    title: 'Partner sign-up is turned off',
    help: 'This sandbox was started with `--partner-signup off`: its operator creates partners. Use the credential you were given, or ask the operator for one.',
  },
  resource_not_found: {
    status: 404,
    title: 'Resource not found',
    help: 'No resource with that id exists for the authenticated partner. Ids of other partners are invisible and answer 404 too.',
  },
  route_not_found: {
    status: 404,
    title: 'Route not found',
    help: 'No endpoint answers at this path. The OpenAPI document at `/v3/openapi.json` lists every endpoint.',
  },
  scenario_not_found: {
    status: 404,
    title: 'Scenario not found',
    help: 'No scenario file has that name. `GET /v3/sandbox/scenarios` (or `credit-sandbox scenario list`) lists the available ones.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    help: 'The path exists but not with this HTTP method. The `Allow` header lists the methods it accepts.',
  },
  // 409: the request conflicts with the resource's current state.
  customer_exists: {
    status: 409,
    title: 'Customer already exists',
    help: 'With `param: cpf`: a customer with this `cpf` already exists for this partner with a different `external_id`; registering again with the same `external_id` returns it with 200. With `param: cnpj`: the `cnpj` belongs to a customer with another cpf, whatever the `external_id` (a cnpj belongs to one customer). Look the customer up with `GET /v3/customers?cpf=…` or by the id the detail names.',
  },
  kyc_completed: {
    status: 409,
    title: 'KYC already completed',
    help: 'The customer is `active`: its KYC was approved and can no longer be changed. Register the person again only if this is really a different customer.',
  },
  biometrics_already_approved: {
    status: 409,
    title: 'Biometrics already approved',
    help: "The customer's `biometrics` KYC item is already `approved`; no new capture session is needed.",
  },
  no_biometrics_session: {
    status: 409,
    title: 'No open biometrics session',
    help: 'Completing biometrics needs an open, unexpired capture session. Start one with `POST /v3/customers/{id}/biometrics`.',
  },
  invalid_kyc_transition: {
    status: 409,
    title: 'KYC item cannot make this move',
    help: "The KYC item is not in a status that allows this action (for example rejecting an item that was never submitted). Read the customer's `kyc` array for the current statuses.",
  },
  invalid_loan_transition: {
    status: 409,
    title: 'Loan cannot make this move',
    help: 'The loan is not in a status that allows this action: signing and declining need `awaiting_signatures`; cancelling needs a status before `active`; failing the contract stage needs `processing` or `contract_generated`, the disbursement stage `signed` or `disbursing`. Read the loan for its current `status`.',
  },
  // 413 / 415: the body cannot be read as sent.
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    help: 'The request body is larger than the sandbox accepts for this endpoint.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    help: "The request body's content type is not accepted by this endpoint.",
  },
  file_too_large: {
    status: 422,
    title: 'File too large',
    help: 'Uploaded KYC documents are limited to 10 MiB (10485760 bytes). Compress or resize the image, or send a smaller PDF.',
  },
  // 422: well-formed, refused by a rule.
  invalid_cpf: {
    status: 422,
    title: 'Invalid CPF',
    help: 'The CPF fails its check digits (or repeats one digit). Send the 11 digits of a real CPF, bare (`12345678909`) or masked (`123.456.789-09`).',
  },
  invalid_cnpj: {
    status: 422,
    title: 'Invalid CNPJ',
    help: 'The CNPJ fails its check digits (or repeats one character). Numeric and alphanumeric CNPJs are accepted, bare (`12ABC34501DE35`) or masked (`12.ABC.345/01DE-35`).',
  },
  immutable_field: {
    status: 422,
    title: 'Field cannot be changed',
    help: '`cpf` and `external_id` are fixed when a customer is created. Register a new customer instead.',
  },
  document_type_not_required: {
    status: 422,
    title: 'Document type not required for this customer',
    help: "The upload's `type` must be one of the document requirements in the customer's `kyc` array (biometrics are captured through `POST /v3/customers/{id}/biometrics`, data items are corrected with PATCH).",
  },
  kyc_item_not_accepting: {
    status: 422,
    title: 'KYC item does not accept an upload now',
    help: 'Documents are accepted while their KYC item is `pending` or `pending_resubmission`. A `submitted` item is waiting for review and an `approved` one needs nothing more.',
  },
  kyc_type_not_applicable: {
    status: 422,
    title: 'KYC action does not apply to this type',
    help: 'The type is not a KYC item of this customer, or the action does not fit its kind: documents and biometrics are rejected, data fields (`name`, `email`, `phone`, `cnpj`, `trading_name`) get correction requests.',
  },
  unsupported_file_type: {
    status: 422,
    title: 'Unsupported file type',
    help: "Documents must be PDF, JPEG or PNG. The format is read from the file's leading bytes, not from its name or declared content type.",
  },
  request_too_large: {
    status: 422,
    title: 'Request too large',
    help: 'This operation takes no body, and the one sent is over the 16 MiB the sandbox reads. Send the request without a body.',
  },
  empty_file: {
    status: 422,
    title: 'Empty file',
    help: 'The uploaded file has no content. Attach the document itself in the multipart field `file`.',
  },
  webhook_url_not_allowed: {
    status: 422,
    title: 'Webhook URL not allowed',
    help: 'Webhook URLs must be https. Plain http is accepted only for loopback hosts (localhost, 127.0.0.0/8, [::1]) and for hosts the sandbox was started with in `--webhook-http-hosts`.',
  },
  unknown_event_pattern: {
    status: 422,
    title: 'Unknown event pattern',
    help: 'Each entry of `events` must be `*`, `<resource>.*` (customer.*, credit_offer.*, loan.*) or an exact event name. An empty list subscribes to every event.',
  },
  webhook_endpoint_disabled: {
    status: 422,
    title: 'Webhook endpoint disabled',
    help: 'Disabled endpoints receive nothing. Re-enable it with `PATCH /v3/webhooks/endpoints/{id}` and `{"status": "active"}` first.',
  },
  credit_offer_expired: {
    status: 422,
    title: 'Credit offer expired',
    help: "The offer passed its `valid_until` and can no longer be simulated or contracted. List the customer's offers with `status=available`; a fresh offer is generated one day after an offer expires (or at once with `POST /v3/sandbox/customers/{id}/credit-offers`).",
  },
  credit_offer_already_accepted: {
    status: 422,
    title: 'Credit offer already accepted',
    help: 'A loan was already created from this offer; an offer can be contracted once. Follow that loan with `GET /v3/loans?customer_id=…`.',
  },
  amount_out_of_range: {
    status: 422,
    title: 'Amount outside the offer',
    help: "`requested_amount` must lie between the offer's `min_amount` and `approved_amount`, both included.",
  },
  installment_count_out_of_range: {
    status: 422,
    title: 'Installment count outside the offer',
    help: "`installment_count` must equal the offer's `installments`, or lie between its `min_installments` and `max_installments` when the offer has a range.",
  },
  simulation_superseded: {
    status: 422,
    title: 'Simulation is not the latest',
    help: 'Only the latest simulation of an offer can be contracted. Create the loan with the `id` of the most recent `POST /v3/credit-offers/{id}/simulations` answer (or simulate again).',
  },
  simulation_offer_mismatch: {
    status: 422,
    title: 'Simulation belongs to another offer',
    help: '`simulation_id` must be a simulation of the offer named by `credit_offer_id`.',
  },
  loan_terms_mismatch: {
    status: 422,
    title: 'Loan terms differ from the simulation',
    help: "`installments`, `installments_value` and `first_due_date` are optional; when sent they must equal the simulation's `number_of_installments`, `installments_value` and `first_due_date`. `errors[]` lists each difference.",
  },
  loan_not_active: {
    status: 422,
    title: 'Loan does not accept payments',
    help: 'Payments are recorded only for `active` loans. A `finished` loan is fully paid; a loan before `active` has not been disbursed yet.',
  },
  installment_not_found: {
    status: 422,
    title: 'No such installment',
    help: "`installment_number` must be between 1 and the loan's `installments`.",
  },
  installment_already_paid: {
    status: 422,
    title: 'Installment already paid',
    help: 'The installment is `paid`. Omit `installment_number` to pay the oldest open installment, or name an open one.',
  },
  payment_exceeds_outstanding: {
    status: 422,
    title: 'Payment exceeds what is owed',
    help: 'A payment settles one installment: at most its `amount_outstanding` (the unpaid part of `amount_due` plus unpaid late charges). Split larger amounts into one payment per installment.',
  },
  customer_not_active: {
    status: 422,
    title: 'Customer is not active',
    help: 'Credit offers exist only for `active` customers (KYC approved). Finish KYC first, e.g. with `POST /v3/sandbox/customers/{id}/kyc/approve`.',
  },
  invalid_offer_terms: {
    status: 422,
    title: 'Invalid offer terms',
    help: 'Terms for a generated offer must be coherent: `min_amount` ≤ `approved_amount`, `min_installments` ≤ `max_installments`, and no fee for individuals (origination fees are forbidden for them). `errors[]` lists each problem.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key used for another operation',
    help: 'An `Idempotency-Key` belongs to the operation (method and path) it was first sent with, for 24 hours of the partner clock. Use a fresh key for each new operation; the detail names the operation the key was first used on.',
  },
  clock_backwards: {
    status: 422,
    title: 'Clock cannot move backwards',
    help: 'A partner clock only moves forward. Use a later `to` date-time or a positive `by` duration; reset the partner to start over.',
  },
  clock_jump_too_large: {
    status: 422,
    title: 'Clock jump too large',
    help: 'One advance moves a partner clock at most 3660 days (10 years), so a typo cannot make the sandbox run millions of jobs. Advance in several steps if you really need more.',
  },
  quota_exceeded: {
    status: 422,
    title: 'Partner quota reached',
    help: 'On a hosted sandbox each partner may hold a limited number of objects (`--quota-customers`). Reset the partner (`POST /v3/sandbox/reset`) or create another partner.',
  },
  too_many_fault_rules: {
    status: 422,
    title: 'Too many fault rules',
    help: 'A partner holds at most 50 API-side fault rules at once. Delete the ones you no longer need (`DELETE /v3/sandbox/faults/{id}`) or clear them all (`DELETE /v3/sandbox/faults`).',
  },
  snapshot_exists: {
    status: 409,
    title: 'Snapshot name taken',
    help: 'This partner already has a snapshot with that name. Send `"replace": true` (import: `?replace=true`) to overwrite it, delete it first, or pick another name.',
  },
  snapshot_ids_taken: {
    status: 409,
    title: 'Snapshot ids belong to another partner',
    help: 'Snapshots keep their ids, and an id belongs to one partner of a sandbox: another partner here holds an id of this snapshot (it was imported there, or exported from there). Import it into that partner, on another sandbox, or after that partner was reset.',
  },
  snapshot_limit_reached: {
    status: 422,
    title: 'Snapshot bound reached',
    help: 'A partner keeps at most 20 snapshots of at most 16 MiB (as JSON) each, 64 MiB together. Delete snapshots you no longer need (`DELETE /v3/sandbox/snapshots/{name}`), or save a smaller world.',
  },
  snapshot_invalid: {
    status: 422,
    title: 'Snapshot document invalid',
    help: 'An import takes the document `GET /v3/sandbox/snapshots/{name}/export` answered, unchanged: `format` "credit-sandbox-snapshot", a known `version` (1), and every table as exported. Nothing was imported; the detail names the first problem.',
  },
  // 429 / 500.
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    help: "The partner sent more requests per second than the sandbox's rate limit allows. Wait `Retry-After` seconds, or start the sandbox with a higher `--rate-limit` (0 disables it).",
  },
  too_many_connections: {
    status: 429,
    title: 'Too many connections from this address',
    help: 'A hosted sandbox (`--hosted`) limits the open connections of one client address (`--max-connections-per-client`, default 32). Close idle connections or reuse them (keep-alive) instead of opening new ones.',
  },
  provider_state_failed: {
    status: 422,
    title: 'Provider state could not be set up',
    help: 'The scenario that sets up this provider state failed; the detail names the step and why. Run it alone with `POST /v3/sandbox/scenarios/{name}/runs` to see every step.',
  },
  scenario_files_invalid: {
    status: 500,
    title: 'Scenario files are invalid',
    help: 'A scenario file served by this sandbox no longer validates (it was edited while the server ran). The detail names the file, the step and the problem; fix the file and retry.',
  },
  instance_unavailable: {
    status: 503,
    title: 'Sandbox instance unavailable',
    help: 'Shared mode: the instance that owns this partner could not be reached and its lease has not expired yet, or ownership is moving. Nothing was applied; retry after `Retry-After` seconds.',
  },
  write_failed: {
    status: 503,
    title: 'Change could not be saved',
    help: 'The database refused to store this change. It was rolled back (the partner is reloaded from what was saved), so nothing of the request was applied; retry. Other partners are not affected.',
  },
  bad_gateway: {
    status: 502,
    title: 'Bad gateway',
    help: 'An upstream service answered badly or not at all. The request may or may not have been applied: retry a POST with the same `Idempotency-Key`, so it is applied at most once.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    help: 'The service is temporarily unable to handle the request; nothing was applied. Retry after `Retry-After` seconds when present, with backoff otherwise.',
  },
  gateway_timeout: {
    status: 504,
    title: 'Gateway timeout',
    help: 'An upstream service did not answer in time. The request may or may not have been applied: retry a POST with the same `Idempotency-Key`, so it is applied at most once.',
  },
  internal_error: {
    status: 500,
    title: 'Internal server error',
    help: 'The sandbox failed unexpectedly. The request was not applied partially; it is safe to retry. Please report it with the request that caused it.',
  },
} as const satisfies Record<string, { status: number; title: string; help: string }>;

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
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.title = ERROR_CATALOG[code].title;
    this.param = options.param;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** The standard 404 for an id that does not exist for this partner (including another partner's id). */
export function notFound(resource: string, id: string): ApiError {
  return new ApiError('resource_not_found', `No ${resource} with id "${id}" exists for this partner.`);
}
