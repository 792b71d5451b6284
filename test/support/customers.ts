import { readFileSync } from 'node:fs';
import type { TestSandbox } from './sandbox.js';

/** Valid CPFs/CNPJs for tests (check digits computed by src/finance). */
export const CPF = {
  plain: '52998224725',
  masked: '529.982.247-25',
  other: '11144477735',
  /** Magic: the first upload of each document is rejected. */
  rejectedOnce: '00000000191',
  /** Magic: the KYC review asks for the name to be corrected. */
  correction: '00000000272',
};
export const CNPJ = { numeric: '11222333000181', masked: '11.222.333/0001-81', alnum: '12ABC34501DE35' };

const FIXTURES = new URL('../../fixtures/', import.meta.url);

/** The bytes of a sample document in fixtures/. */
export function fixture(name: 'sample.pdf' | 'sample.jpg' | 'sample.png'): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(new URL(name, FIXTURES)));
}

export interface CustomerBody {
  id: string;
  status: string;
  cpf: string;
  cnpj: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  trading_name: string | null;
  external_id: string | null;
  kyc: KycItem[];
  created_at: string;
  updated_at: string;
}

export interface KycItem {
  kind: string;
  type: string;
  description: string;
  status: string;
  message: string | null;
  uploaded_at: string | null;
}

export interface EventBody {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Registers a customer and returns it (fails the test on anything but 201). */
export async function createCustomer(
  sandbox: TestSandbox,
  body: Record<string, unknown> = {},
  token?: string,
): Promise<CustomerBody> {
  const res = await sandbox.json<CustomerBody>('POST', '/v3/customers', {
    body: {
      cpf: CPF.plain,
      name: 'Maria da Silva',
      email: 'maria@example.com',
      phone: '+5511987654321',
      ...body,
    },
    ...(token ? { token } : {}),
  });
  if (res.status !== 201)
    throw new Error(`customer creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface UploadOptions {
  bytes?: Uint8Array<ArrayBuffer>;
  filename?: string;
  contentType?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** POSTs a multipart upload (default: the sample PNG). */
export async function upload(
  sandbox: TestSandbox,
  customerId: string,
  type: string,
  options: UploadOptions = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const form = new FormData();
  form.set('type', type);
  const bytes = options.bytes ?? fixture('sample.png');
  form.set(
    'file',
    new File([bytes], options.filename ?? 'document.png', { type: options.contentType ?? 'image/png' }),
  );
  const res = await sandbox.app.request(`/v3/customers/${customerId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token ?? (await sandbox.token())}`, ...options.headers },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
}

/** Moves the partner clock (never sleep). */
export async function advance(sandbox: TestSandbox, by: string, token?: string): Promise<void> {
  const res = await sandbox.json('POST', '/v3/sandbox/clock/advance', {
    body: { by },
    ...(token ? { token } : {}),
  });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status}`);
}

/** The partner's customer.* events, oldest first. */
export async function customerEvents(sandbox: TestSandbox, token?: string): Promise<EventBody[]> {
  const all: EventBody[] = [];
  let cursor: string | undefined;
  for (;;) {
    const query = `type=customer.*&limit=100${cursor ? `&starting_after=${cursor}` : ''}`;
    const res = await sandbox.json<{ data: EventBody[]; has_more: boolean }>(
      'GET',
      `/v3/sandbox/events?${query}`,
      {
        ...(token ? { token } : {}),
      },
    );
    all.push(...res.body.data);
    if (!res.body.has_more) break;
    cursor = res.body.data.at(-1)?.id;
  }
  return all.reverse();
}

/** The statuses of a customer's kyc items by type. */
export function kycStatuses(customer: { kyc: KycItem[] }): Record<string, string> {
  return Object.fromEntries(customer.kyc.map((item) => [item.type, item.status]));
}

/** Starts a biometrics session and completes it through the control endpoint. */
export async function completeBiometrics(
  sandbox: TestSandbox,
  customerId: string,
  outcome: 'approved' | 'rejected',
): Promise<CustomerBody> {
  const session = await sandbox.json('POST', `/v3/customers/${customerId}/biometrics`);
  if (session.status !== 200) throw new Error(`biometrics session failed: ${session.status}`);
  const done = await sandbox.json<CustomerBody>(
    'POST',
    `/v3/sandbox/customers/${customerId}/biometrics/complete`,
    {
      body: { outcome },
    },
  );
  if (done.status !== 200) throw new Error(`biometrics completion failed: ${JSON.stringify(done.body)}`);
  return done.body;
}

/** Submits every requirement of an individual: three documents and approved biometrics. */
export async function submitAllKyc(
  sandbox: TestSandbox,
  customerId: string,
  extra: string[] = [],
): Promise<void> {
  for (const type of ['identity_card_front', 'identity_card_back', 'selfie', ...extra]) {
    const res = await upload(sandbox, customerId, type);
    if (res.status !== 201) throw new Error(`upload ${type} failed: ${JSON.stringify(res.body)}`);
  }
  await completeBiometrics(sandbox, customerId, 'approved');
}
