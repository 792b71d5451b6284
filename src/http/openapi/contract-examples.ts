import { problemExample } from './problem-examples.js';

/**
 * Named request/response examples that contract-testing tools replay against a running sandbox
 * (Specmatic pairs a request example with the response example of the same name and checks the
 * status and the response schema). Each one holds on a fresh sandbox whatever ran before it: lists
 * answer 200, creations 201 with values that always pass validation, and ids that name nothing
 * answer their documented 404. Swagger UI offers them in its example menus too.
 */
interface ContractCase {
  name: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  status: number;
  params?: Record<string, unknown>;
  body?: unknown;
}

const UNKNOWN = '0123456789abcdef0123456789abcdef';
const key = (name: string) => ({ 'Idempotency-Key': `contract-${name}` });

const CASES: ContractCase[] = [
  // Authentication
  { name: 'list_credentials', method: 'get', path: '/auth/credentials', status: 200, params: { limit: 10 } },
  {
    name: 'create_credential',
    method: 'post',
    path: '/auth/credentials',
    status: 201,
    params: key('create_credential'),
    body: { name: 'billing-service' },
  },
  {
    name: 'revoke_unknown_credential',
    method: 'delete',
    path: '/auth/credentials/{client_id}',
    status: 404,
    params: { client_id: `cid_${UNKNOWN}` },
  },
  // Customers
  {
    name: 'register_customer',
    method: 'post',
    path: '/customers',
    status: 201,
    params: key('register_customer'),
    body: {
      cpf: '52998224725',
      name: 'Maria da Silva',
      email: 'maria.silva@example.com',
      phone: '+5511987654321',
      external_id: 'crm-000123',
    },
  },
  {
    name: 'invalid_cpf_type',
    method: 'post',
    path: '/customers',
    status: 400,
    params: key('invalid_cpf_type'),
    body: { cpf: 52998224725 },
  },
  {
    name: 'list_customers',
    method: 'get',
    path: '/customers',
    status: 200,
    params: { limit: 25, status: 'active' },
  },
  {
    name: 'unknown_customer',
    method: 'get',
    path: '/customers/{customer_id}',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}` },
  },
  {
    name: 'update_unknown_customer',
    method: 'patch',
    path: '/customers/{customer_id}',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}` },
    body: { email: 'maria.silva@example.com' },
  },
  {
    name: 'invalid_cpf_digits',
    method: 'post',
    path: '/customers',
    status: 422,
    params: key('invalid_cpf_digits'),
    body: { cpf: '12345678900', name: 'Maria da Silva' },
  },
  {
    name: 'unknown_document',
    method: 'get',
    path: '/customers/{customer_id}/documents/{document_id}',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}`, document_id: `doc_${UNKNOWN}` },
  },
  {
    name: 'biometrics_of_unknown_customer',
    method: 'post',
    path: '/customers/{customer_id}/biometrics',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}`, ...key('biometrics_of_unknown_customer') },
  },
  // Credit offers and loans
  { name: 'list_offers', method: 'get', path: '/credit-offers', status: 200, params: { limit: 25 } },
  {
    name: 'unknown_offer',
    method: 'get',
    path: '/credit-offers/{credit_offer_id}',
    status: 404,
    params: { credit_offer_id: `co_${UNKNOWN}` },
  },
  {
    name: 'offers_of_unknown_customer',
    method: 'get',
    path: '/customers/{customer_id}/credit-offers',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}` },
  },
  {
    name: 'simulate_unknown_offer',
    method: 'post',
    path: '/credit-offers/{credit_offer_id}/simulations',
    status: 404,
    params: { credit_offer_id: `co_${UNKNOWN}`, ...key('simulate_unknown_offer') },
    body: { requested_amount: '5000.00', installment_count: 12 },
  },
  { name: 'list_loans', method: 'get', path: '/loans', status: 200, params: { limit: 25 } },
  {
    name: 'unknown_loan',
    method: 'get',
    path: '/loans/{loan_id}',
    status: 404,
    params: { loan_id: `ln_${UNKNOWN}` },
  },
  {
    name: 'transactions_of_unknown_loan',
    method: 'get',
    path: '/loans/{loan_id}/transactions',
    status: 404,
    params: { loan_id: `ln_${UNKNOWN}` },
  },
  // Webhook endpoints (loopback, so a contract run sends nothing off the machine)
  {
    name: 'create_endpoint',
    method: 'post',
    path: '/webhooks/endpoints',
    status: 201,
    params: key('create_endpoint'),
    body: {
      url: 'http://127.0.0.1:9/webhooks',
      events: ['customer.*', 'loan.active'],
      description: 'contract',
    },
  },
  { name: 'list_endpoints', method: 'get', path: '/webhooks/endpoints', status: 200, params: { limit: 25 } },
  {
    name: 'unknown_endpoint',
    method: 'get',
    path: '/webhooks/endpoints/{webhook_endpoint_id}',
    status: 404,
    params: { webhook_endpoint_id: `we_${UNKNOWN}` },
  },
  {
    name: 'delete_unknown_endpoint',
    method: 'delete',
    path: '/webhooks/endpoints/{webhook_endpoint_id}',
    status: 404,
    params: { webhook_endpoint_id: `we_${UNKNOWN}` },
  },
  {
    name: 'credential_name_not_text',
    method: 'post',
    path: '/auth/credentials',
    status: 400,
    params: key('credential_name_not_text'),
    body: { name: 42 },
  },
  {
    name: 'plain_http_endpoint',
    method: 'post',
    path: '/webhooks/endpoints',
    status: 422,
    params: key('plain_http_endpoint'),
    body: { url: 'http://partner.example.com/webhooks/credit', events: ['*'] },
  },
  {
    name: 'rotate_unknown_endpoint_secret',
    method: 'post',
    path: '/webhooks/endpoints/{webhook_endpoint_id}/secret/rotate',
    status: 404,
    params: { webhook_endpoint_id: `we_${UNKNOWN}`, ...key('rotate_unknown_endpoint_secret') },
  },
  {
    name: 'loan_from_unknown_offer',
    method: 'post',
    path: '/loans',
    status: 404,
    params: key('loan_from_unknown_offer'),
    body: { credit_offer_id: `co_${UNKNOWN}`, simulation_id: `sim_${UNKNOWN}` },
  },
  {
    name: 'simulation_without_amount',
    method: 'post',
    path: '/credit-offers/{credit_offer_id}/simulations',
    status: 400,
    params: { credit_offer_id: `co_${UNKNOWN}`, ...key('simulation_without_amount') },
    body: { installment_count: 12 },
  },
  // Sandbox control
  { name: 'read_clock', method: 'get', path: '/sandbox/clock', status: 200 },
  { name: 'advance_clock', method: 'post', path: '/sandbox/clock/advance', status: 200, body: { by: '1s' } },
  { name: 'bad_duration', method: 'post', path: '/sandbox/clock/advance', status: 400, body: { by: 35 } },
  { name: 'freeze_clock', method: 'post', path: '/sandbox/clock/freeze', status: 200 },
  {
    name: 'carnival_2027',
    method: 'get',
    path: '/sandbox/calendar',
    status: 200,
    params: { from: '2027-02-01', to: '2027-02-28' },
  },
  {
    name: 'calendar_bad_date',
    method: 'get',
    path: '/sandbox/calendar',
    status: 400,
    params: { from: '2027-02-30' },
  },
  { name: 'list_events', method: 'get', path: '/sandbox/events', status: 200, params: { type: 'loan.*' } },
  {
    name: 'unknown_event',
    method: 'get',
    path: '/sandbox/events/{event_id}',
    status: 404,
    params: { event_id: `evt_${UNKNOWN}` },
  },
  { name: 'list_deliveries', method: 'get', path: '/sandbox/deliveries', status: 200, params: { limit: 25 } },
  { name: 'list_scenarios', method: 'get', path: '/sandbox/scenarios', status: 200 },
  {
    name: 'run_happy_path',
    method: 'post',
    path: '/sandbox/scenarios/{name}/runs',
    status: 200,
    params: { name: 'happy-path' },
    body: { params: { amount: '3000.00' } },
  },
  {
    name: 'unknown_scenario',
    method: 'post',
    path: '/sandbox/scenarios/{name}/runs',
    status: 404,
    params: { name: 'happy-pat' },
    body: { params: {} },
  },
  {
    name: 'new_partner',
    method: 'post',
    path: '/sandbox/partners',
    status: 201,
    body: { name: 'contract-tests', clock: 'frozen' },
  },
  {
    name: 'approve_unknown_customer',
    method: 'post',
    path: '/sandbox/customers/{customer_id}/kyc/approve',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}` },
  },
  {
    name: 'clock_backwards',
    method: 'post',
    path: '/sandbox/clock/advance',
    status: 422,
    body: { to: '2020-01-01T00:00:00Z' },
  },
  { name: 'resume_clock', method: 'post', path: '/sandbox/clock/resume', status: 200 },
  { name: 'bad_page_size', method: 'get', path: '/sandbox/events', status: 400, params: { limit: 0 } },
  {
    name: 'redeliver_unknown_event',
    method: 'post',
    path: '/sandbox/events/{event_id}/redeliver',
    status: 404,
    params: { event_id: `evt_${UNKNOWN}` },
    body: {},
  },
  {
    name: 'bad_partner_clock',
    method: 'post',
    path: '/sandbox/partners',
    status: 400,
    body: { name: 'contract-tests', clock: 'sideways' },
  },
  {
    name: 'reject_document_of_unknown_customer',
    method: 'post',
    path: '/sandbox/customers/{customer_id}/kyc/{type}/reject',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}`, type: 'selfie' },
    body: { message: 'The photo is blurry; upload a sharper one.' },
  },
  {
    name: 'complete_biometrics_of_unknown_customer',
    method: 'post',
    path: '/sandbox/customers/{customer_id}/biometrics/complete',
    status: 404,
    params: { customer_id: `cust_${UNKNOWN}` },
    body: { outcome: 'approved' },
  },
  {
    name: 'expire_unknown_offer',
    method: 'post',
    path: '/sandbox/credit-offers/{credit_offer_id}/expire',
    status: 404,
    params: { credit_offer_id: `co_${UNKNOWN}` },
  },
  {
    name: 'decline_unknown_loan',
    method: 'post',
    path: '/sandbox/loans/{loan_id}/decline',
    status: 404,
    params: { loan_id: `ln_${UNKNOWN}` },
  },
  {
    name: 'fail_unknown_loan',
    method: 'post',
    path: '/sandbox/loans/{loan_id}/fail',
    status: 404,
    params: { loan_id: `ln_${UNKNOWN}` },
    body: { stage: 'disbursement' },
  },
  {
    name: 'sign_unknown_loan',
    method: 'post',
    path: '/sandbox/loans/{loan_id}/sign',
    status: 404,
    params: { loan_id: `ln_${UNKNOWN}` },
  },
  {
    name: 'pay_unknown_loan',
    method: 'post',
    path: '/sandbox/loans/{loan_id}/payments',
    status: 404,
    params: { loan_id: `ln_${UNKNOWN}` },
    body: { amount: '149.60', installment_number: 1 },
  },
  { name: 'reset_partner', method: 'post', path: '/sandbox/reset', status: 200 },
];

type Json = Record<string, unknown>;

/** Adds the named examples to the (already relative) paths of the document. */
export function contractExamples(paths: Record<string, Json>, components: Json, publicUrl: string): number {
  let added = 0;
  for (const test of CASES) {
    const operation = paths[test.path]?.[test.method] as Json | undefined;
    if (!operation)
      throw new Error(`contract example ${test.name}: no operation ${test.method} ${test.path}`);
    const response = (operation.responses as Record<string, Json> | undefined)?.[String(test.status)];
    if (!response)
      throw new Error(
        `contract example ${test.name}: ${test.method} ${test.path} documents no ${test.status}`,
      );
    for (const [name, value] of Object.entries(test.params ?? {})) {
      const parameter = ((operation.parameters ?? []) as Json[]).find((p) => p.name === name);
      if (!parameter) throw new Error(`contract example ${test.name}: no parameter ${name}`);
      named(parameter, test.name, value);
    }
    if (test.body !== undefined) {
      const media = (
        (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined
      )?.['application/json'];
      if (!media) throw new Error(`contract example ${test.name}: no JSON request body`);
      named(media, test.name, test.body);
    }
    for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
      const value =
        type === 'application/problem+json'
          ? problemExample(test.status, publicUrl)
          : sampleOf(media.schema, components);
      named(media, test.name, value);
    }
    added += 1;
  }
  return added;
}

function named(target: Json, name: string, value: unknown): void {
  // `example` and `examples` exclude each other: a parameter keeps its plain example on its schema;
  // a media type's named examples replace it.
  if (target.example !== undefined) {
    if (target.in !== undefined && target.schema) (target.schema as Json).example = target.example;
    delete target.example;
  }
  target.examples = { ...((target.examples as Json | undefined) ?? {}), [name]: { value } };
}

/** A value that follows the schema, built from the examples on its leaves. */
export function sampleOf(schema: unknown, components: Json): unknown {
  if (!schema || typeof schema !== 'object') return null;
  const node = schema as Json;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.split('/').at(-1) as string;
    return sampleOf((components.schemas as Json)[name], components);
  }
  if (node.example !== undefined) return node.example;
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.allOf)) {
    return Object.assign({}, ...node.allOf.map((part: unknown) => sampleOf(part, components)));
  }
  for (const key of ['anyOf', 'oneOf']) {
    const parts = node[key];
    if (Array.isArray(parts)) {
      const concrete = parts.find((part: Json) => part.type !== 'null') ?? parts[0];
      return sampleOf(concrete, components);
    }
  }
  if (node.type === 'object' || node.properties) {
    const out: Json = {};
    for (const [name, property] of Object.entries((node.properties ?? {}) as Json))
      out[name] = sampleOf(property, components);
    return out;
  }
  if (node.type === 'array') return node.items ? [sampleOf(node.items, components)] : [];
  if (Array.isArray(node.enum)) return node.enum[0];
  return null;
}
