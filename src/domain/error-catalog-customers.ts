/** Error codes of customers and their KYC: identity numbers, documents, biometrics. */
import type { ErrorCatalogEntry } from './error-catalog-entry.js';

export const CUSTOMER_ERRORS = {
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
  file_too_large: {
    status: 422,
    title: 'File too large',
    help: 'Uploaded KYC documents are limited to 10 MiB (10485760 bytes). Compress or resize the image, or send a smaller PDF.',
  },
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
  empty_file: {
    status: 422,
    title: 'Empty file',
    help: 'The uploaded file has no content. Attach the document itself in the multipart field `file`.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
