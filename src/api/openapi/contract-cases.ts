/**
 * The named examples of the partner-facing API (see contract-examples.ts): each holds on a fresh
 * sandbox whatever ran before it.
 */
export interface ContractCase {
  name: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  status: number;
  params?: Record<string, unknown>;
  body?: unknown;
}

export const UNKNOWN = '0123456789abcdef0123456789abcdef';
export const key = (name: string) => ({ 'Idempotency-Key': `contract-${name}` });

/** Authentication, customers, credit offers, loans and webhook endpoints. */
export const PARTNER_CASES: ContractCase[] = [
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
];
