import { describe, expect, it } from 'vitest';
import { CNPJ, CPF, type CustomerBody, createCustomer, customerEvents } from '../support/customers.js';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';

describe('POST /v3/customers', () => {
  it('registers with only a cpf: 201, Location, every field present, nullable ones null', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<CustomerBody>('POST', '/v3/customers', { body: { cpf: CPF.masked } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/v3/customers/${res.body.id}`);
    expect(Object.keys(res.body).sort()).toEqual([
      'cnpj',
      'cpf',
      'created_at',
      'email',
      'external_id',
      'id',
      'kyc',
      'name',
      'phone',
      'status',
      'trading_name',
      'updated_at',
    ]);
    expect(res.body).toMatchObject({
      status: 'pending_kyc',
      cpf: CPF.plain,
      cnpj: null,
      // name, email and phone are strings in the spec: never sent means an empty string.
      name: '',
      email: '',
      phone: '',
      trading_name: null,
      external_id: null,
    });
    const read = await sandbox.json<CustomerBody>('GET', `/v3/customers/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const events = await sandbox.json<{ data: { type: string; data: Record<string, unknown> }[] }>(
      'GET',
      '/v3/sandbox/events?type=customer.created',
    );
    expect(events.body.data[0]?.data).toMatchObject({ name: '', email: '', phone: '', cnpj: null });
  });

  it.each([
    ['bare', '52998224725'],
    ['masked', '529.982.247-25'],
    ['partly masked', '529982247-25'],
    ['with spaces around', ' 529.982.247-25 '],
  ])('accepts a %s cpf and stores 11 digits', async (_name, cpf) => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { cpf });
    expect(customer.cpf).toBe(CPF.plain);
  });

  it.each([
    ['numeric bare', CNPJ.numeric, CNPJ.numeric],
    ['numeric masked', CNPJ.masked, CNPJ.numeric],
    ['alphanumeric', CNPJ.alnum, CNPJ.alnum],
    ['alphanumeric masked lowercase', '12.abc.345/01de-35', CNPJ.alnum],
  ])('accepts a %s cnpj and stores it normalized', async (_name, cnpj, stored) => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { cnpj });
    expect(customer.cnpj).toBe(stored);
  });

  it('emits customer.created with exactly the spec payload', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, {
      cnpj: CNPJ.masked,
      trading_name: 'Doces',
      external_id: 'e-1',
    });
    const events = await customerEvents(sandbox);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'customer.created',
      timestamp: customer.created_at,
      data: {
        id: customer.id,
        status: 'pending_kyc',
        cpf: CPF.plain,
        cnpj: CNPJ.numeric,
        name: 'Maria da Silva',
        email: 'maria@example.com',
        phone: '+5511987654321',
        trading_name: 'Doces',
        external_id: 'e-1',
      },
    });
  });

  describe('same cpf/cnpj again', () => {
    it('answers 200 with the existing customer for the same external_id (also when both have none)', async () => {
      const sandbox = createTestSandbox();
      const first = await createCustomer(sandbox, { external_id: 'user-7' });
      const again = await sandbox.json<CustomerBody>('POST', '/v3/customers', {
        body: { cpf: CPF.masked, external_id: 'user-7', name: 'Other Name' },
      });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first);
      expect(again.headers.get('location')).toBe(`/v3/customers/${first.id}`);

      const bare = await createCustomer(sandbox, { cpf: CPF.other });
      const bareAgain = await sandbox.json<CustomerBody>('POST', '/v3/customers', {
        body: { cpf: CPF.other },
      });
      expect(bareAgain.status).toBe(200);
      expect(bareAgain.body.id).toBe(bare.id);
      expect((await customerEvents(sandbox)).filter((e) => e.type === 'customer.created')).toHaveLength(2);
    });

    it('answers 409 for a different external_id, naming the field', async () => {
      const sandbox = createTestSandbox();
      const first = await createCustomer(sandbox, { external_id: 'user-7', cnpj: CNPJ.numeric });
      const byCpf = await sandbox.json('POST', '/v3/customers', {
        body: { cpf: CPF.plain, external_id: 'user-8' },
      });
      expect(byCpf.status).toBe(409);
      expect(byCpf.body).toMatchObject({ status: 409, code: 'customer_exists', param: 'cpf' });
      expect(String(byCpf.body.detail)).toContain(first.id);
      const noExternal = await sandbox.json('POST', '/v3/customers', { body: { cpf: CPF.plain } });
      expect(noExternal.status).toBe(409);
      const byCnpj = await sandbox.json('POST', '/v3/customers', {
        body: { cpf: CPF.other, cnpj: CNPJ.masked, external_id: 'user-7' },
      });
      expect(byCnpj.status).toBe(409);
      expect(byCnpj.body).toMatchObject({ code: 'customer_exists', param: 'cnpj' });
      const list = await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers');
      expect(list.body.data).toHaveLength(1);
    });

    it('refuses a cnpj held by another cpf with a 409 whose detail matches the rule, whatever the external_id', async () => {
      const sandbox = createTestSandbox();
      const first = await createCustomer(sandbox, {
        cpf: CPF.plain,
        cnpj: CNPJ.numeric,
        external_id: 'mei-1',
      });
      for (const external_id of ['mei-1', 'mei-2']) {
        const res = await sandbox.json<{ param: string; detail: string }>('POST', '/v3/customers', {
          body: { cpf: CPF.other, cnpj: CNPJ.numeric, external_id },
        });
        expect(res.status).toBe(409);
        expect(res.body.param).toBe('cnpj');
        expect(res.body.detail).toContain(`already registered to customer ${first.id} under another cpf`);
        expect(res.body.detail).toContain('whatever the external_id');
        // It never suggests that sending the same external_id would help.
        expect(res.body.detail).not.toContain('Send the same external_id');
      }
      // A cpf of one customer and a cnpj of another: both are named.
      const second = await createCustomer(sandbox, { cpf: CPF.other, external_id: 'mei-2' });
      const mixed = await sandbox.json<{ param: string; detail: string }>('POST', '/v3/customers', {
        body: { cpf: CPF.other, cnpj: CNPJ.numeric, external_id: 'mei-2' },
      });
      expect(mixed.status).toBe(409);
      expect(mixed.body.param).toBe('cnpj');
      expect(mixed.body.detail).toContain(first.id);
      expect(mixed.body.detail).toContain(`this cpf belongs to customer ${second.id}`);
      // The cpf clash names both external_ids and the remedy that works.
      const byCpf = await sandbox.json<{ param: string; detail: string }>('POST', '/v3/customers', {
        body: { cpf: CPF.plain, external_id: 'other' },
      });
      expect(byCpf.body.param).toBe('cpf');
      expect(byCpf.body.detail).toContain('external_id "mei-1"; this request has "other"');
      // The true retry still answers 200.
      const retry = await sandbox.json<CustomerBody>('POST', '/v3/customers', {
        body: { cpf: CPF.plain, cnpj: CNPJ.masked, external_id: 'mei-1' },
      });
      expect(retry.status).toBe(200);
      expect(retry.body.id).toBe(first.id);
    });

    it('creates exactly one customer under 20 concurrent identical registrations', async () => {
      const sandbox = createTestSandbox();
      const token = await sandbox.token();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          sandbox.json<CustomerBody>('POST', '/v3/customers', {
            token,
            body: { cpf: CPF.plain, external_id: 'x' },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 200)).toHaveLength(19);
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      const list = await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers', { token });
      expect(list.body.data).toHaveLength(1);
      expect((await customerEvents(sandbox, token)).map((e) => e.type)).toEqual(['customer.created']);
    });

    it('replays the first response for a repeated Idempotency-Key, even under concurrency', async () => {
      const sandbox = createTestSandbox();
      const token = await sandbox.token();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          sandbox.json<CustomerBody>('POST', '/v3/customers', {
            token,
            headers: { 'idempotency-key': 'reg-1' },
            body: { cpf: CPF.plain },
          }),
        ),
      );
      expect(results.every((r) => r.status === 201)).toBe(true);
      expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    });
  });

  describe('refusals', () => {
    it.each([
      ['missing cpf', { name: 'x' }, 'cpf'],
      ['cpf as a number', { cpf: 52998224725 }, 'cpf'],
      ['cpf with letters', { cpf: '529.982.247-2X' }, 'cpf'],
      ['cpf too short', { cpf: '5299822472' }, 'cpf'],
      ['cnpj malformed', { cpf: CPF.plain, cnpj: '11.222.333/0001' }, 'cnpj'],
      ['email malformed', { cpf: CPF.plain, email: 'maria@' }, 'email'],
      ['phone not E.164', { cpf: CPF.plain, phone: '11 98765-4321' }, 'phone'],
      ['phone without +', { cpf: CPF.plain, phone: '5511987654321' }, 'phone'],
      ['empty name', { cpf: CPF.plain, name: '' }, 'name'],
      ['external_id as a number', { cpf: CPF.plain, external_id: 7 }, 'external_id'],
    ])('answers 400 for %s, with the param', async (_name, body, param) => {
      const sandbox = createTestSandbox();
      const res = await sandbox.json('POST', '/v3/customers', { body });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body).toMatchObject({ status: 400, code: 'validation_failed', param });
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ param })]));
    });

    it('answers 400 for an unknown field, malformed JSON and a non-object body', async () => {
      const sandbox = createTestSandbox();
      const unknown = await sandbox.json('POST', '/v3/customers', {
        body: { cpf: CPF.plain, birth_date: '1990-01-01' },
      });
      expect(unknown.status).toBe(400);
      expect(String(unknown.body.detail)).toContain('birth_date');
      for (const body of ['{"cpf": ', '[]', 'null', '"52998224725"']) {
        const res = await sandbox.json('POST', '/v3/customers', { body });
        expect(res.status, body).toBe(400);
      }
    });

    it('answers 400 (the spec has no 415 for this endpoint) for a body that is not JSON', async () => {
      const sandbox = createTestSandbox();
      for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
        const res = await sandbox.json('POST', '/v3/customers', {
          body: 'cpf=52998224725',
          headers: { 'content-type': type },
        });
        expect(res.status, type).toBe(400);
        expect(res.body).toMatchObject({ code: 'unsupported_content_type', param: 'Content-Type' });
      }
    });

    it.each([
      ['cpf check digits', { cpf: '529.982.247-26' }, 'invalid_cpf', ['cpf']],
      ['a repeated-digit cpf', { cpf: '111.111.111-11' }, 'invalid_cpf', ['cpf']],
      ['cnpj check digits', { cpf: CPF.plain, cnpj: '11.222.333/0001-82' }, 'invalid_cnpj', ['cnpj']],
      [
        'alphanumeric cnpj check digits',
        { cpf: CPF.plain, cnpj: '12ABC34501DE36' },
        'invalid_cnpj',
        ['cnpj'],
      ],
      ['both', { cpf: '52998224726', cnpj: '11222333000182' }, 'invalid_cpf', ['cpf', 'cnpj']],
    ])('answers 422 for %s, listing each field', async (_name, body, code, params) => {
      const sandbox = createTestSandbox();
      const res = await sandbox.json<{ code: string; param: string; errors: { param: string }[] }>(
        'POST',
        '/v3/customers',
        { body },
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(code);
      expect(res.body.param).toBe(params[0]);
      expect(res.body.errors.map((e) => e.param)).toEqual(params);
      expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers')).body.data).toEqual([]);
    });

    it('answers 401 without a token', async () => {
      const sandbox = createTestSandbox();
      const res = await sandbox.json('POST', '/v3/customers', { token: null, body: { cpf: CPF.plain } });
      expect(res.status).toBe(401);
    });
  });

  it("keeps partners apart: another partner's customer is 404 and the same cpf registers anew", async () => {
    const sandbox = createTestSandbox();
    const mine = await createCustomer(sandbox);
    const other = await newPartnerToken(sandbox);
    expect((await sandbox.json('GET', `/v3/customers/${mine.id}`, { token: other.token })).status).toBe(404);
    expect(
      (await sandbox.json('PATCH', `/v3/customers/${mine.id}`, { token: other.token, body: { name: 'x' } }))
        .status,
    ).toBe(404);
    const theirs = await createCustomer(sandbox, {}, other.token);
    expect(theirs.id).not.toBe(mine.id);
    const list = await sandbox.json<{ data: CustomerBody[] }>('GET', '/v3/customers', { token: other.token });
    expect(list.body.data.map((c) => c.id)).toEqual([theirs.id]);
    const unknown = await sandbox.json('GET', '/v3/customers/cust_00000000000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'resource_not_found' });
  });
});
