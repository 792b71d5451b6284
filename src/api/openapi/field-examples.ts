/**
 * Realistic examples for fields whose zod schema carries none, by field name: one dictionary, so
 * every schema that has a `customer_id` shows the same kind of id. Enum fields show their first
 * value; a field name not listed here falls back to its type. Ids are `prefix` + 32 hex, like the
 * ones the sandbox makes.
 */
type Json = unknown;

const hex = '3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d';

export const FIELD_EXAMPLES: Record<string, Json> = {
  id: `cust_${hex}`,
  customer_id: `cust_${hex}`,
  credit_offer_id: `co_${hex}`,
  simulation_id: `sim_${hex}`,
  loan_id: `ln_${hex}`,
  transaction_id: `tx_${hex}`,
  document_id: `doc_${hex}`,
  event_id: `evt_${hex}`,
  endpoint_id: `we_${hex}`,
  webhook_endpoint_id: `we_${hex}`,
  client_id: `cid_${hex}`,
  client_secret: 'svc_cs_test_Jx8Qm2Lr5Tz0Wv7Yb3Nc6Hd9Kf4Gs1Pa',
  starting_after: `cust_${hex}`,
  external_id: 'crm-000123',
  name: 'Maria da Silva',
  trading_name: 'Maria Doces ME',
  cnpj: '11222333000181',
  email: 'maria.silva@example.com',
  phone: '+5511987654321',
  description: 'Orders service, production',
  message: 'The photo is blurry; upload a sharper one.',
  detail: 'cpf has invalid check digits.',
  title: 'Validation failed',
  param: 'cpf',
  code: 'validation_failed',
  instance: `/v3/customers#req_${hex}`,
  url: 'https://partner.example.com/webhooks/credit',
  events: ['customer.*', 'loan.active'],
  content_type: 'application/pdf',
  size: 48213,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  file: 'identity-front.pdf',
  has_more: false,
  frozen: true,
  required: true,
  installments: 12,
  min_installments: 6,
  max_installments: 24,
  installment_number: 1,
  installment_count: 12,
  days_overdue: 0,
  interest_rate: 1.99,
  fee_percentage: 1.5,
  valid_for_days: 30,
  deleted: 42,
  attempt_number: 1,
  status_code: 200,
  duration_ms: 84,
  error: 'connect ECONNREFUSED 127.0.0.1:3000',
  steps: 6,
  index: 0,
  scenario: 'happy-path',
  event_type: 'loan.active',
  'Idempotency-Key': '7c4a8d09-ca37-4e6b-9f1a-2f3b1c5d6e7f',
  signing_url: `http://localhost:8080/hosted/contracts/ln_${hex}/w568ABARhIw4Rff_tL8dLFZk6Rq5hITS`,
  session_url: `http://localhost:8080/hosted/biometrics/bio_${hex}`,
  default: '3000.00',
  example: '3000.00',
  status: 422,
};

/** Examples by enum field when the first value is not the telling one. */
const ENUM_PREFERENCE: Record<string, Json> = {
  clock: 'frozen',
  outcome: 'approved',
  stage: 'disbursement',
};

function fitsType(value: Json, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'number') return typeof value === 'number';
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'string') return typeof value === 'string';
  return true;
}

/** An example for a schema without one, from its field name, enum or type; undefined if none fits. */
export function exampleFor(field: string, schema: Record<string, unknown>): Json {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const preferred = ENUM_PREFERENCE[field];
    return schema.enum.includes(preferred) ? preferred : schema.enum[0];
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const known = FIELD_EXAMPLES[field];
  // A name can mean a string in one schema and a number in another (`status`): keep the type.
  if (known !== undefined && (type === undefined || fitsType(known, String(type)))) return known;
  switch (type) {
    case 'string':
      return schema.format === 'date-time' ? '2026-03-02T12:00:00.000Z' : 'text';
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1.5;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}
