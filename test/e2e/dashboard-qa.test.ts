import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { post, signIn } from '../support/dashboard-session.js';
import { createTestSandbox, newPartnerToken, type TestSandbox } from '../support/sandbox.js';

// What QA looks for on the dashboard: overdue installments without opening a loan, customer names
// in lists, loans by id, search by any id or a name, and the Faults and Snapshots forms.
let sb: TestSandbox;
let cookie: string;
let csrf: string;
let captured: {
  customer: { id: string; name: string };
  offer: { id: string };
  simulation: { id: string };
  loan: { id: string; ccb_number: string };
  installment: { id: string };
};

async function page(path: string): Promise<{ status: number; text: string; location: string | null }> {
  const res = await sb.app.request(path, { headers: { cookie } });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

/** Follows an action's redirect with its flash cookie and answers the page text. */
async function followAction(res: Response): Promise<string> {
  expect(res.status).toBe(303);
  const flash = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  return (
    await sb.app.request(res.headers.get('location') ?? '', { headers: { cookie: `${cookie}; ${flash}` } })
  ).text();
}

beforeAll(async () => {
  sb = createTestSandbox();
  const run = await sb.json<{ status: string; captured: typeof captured }>(
    'POST',
    '/v3/sandbox/scenarios/overdue-installment/runs',
    { body: { params: { days: 30 } } },
  );
  expect(run.body.status).toBe('passed');
  captured = run.body.captured;
  ({ cookie, csrf } = await signIn(sb));
});

describe('overdue at a glance', () => {
  it('the overview counts installments by status, overdue first', async () => {
    const { text } = await page('/dashboard');
    const card = /<section class="card" aria-label="Installments">[\s\S]*?<\/section>/.exec(text)?.[0] ?? '';
    const order = [...card.matchAll(/data-count="(\w+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['overdue', 'partially_paid', 'pending', 'paid']);
    expect(card).toMatch(/data-count="overdue">[\s\S]*?<strong>1<\/strong>/);
  });

  it('the loans list shows an overdue badge, the customer name, the loan id and its contract number', async () => {
    const { text } = await page('/dashboard/loans');
    const row = new RegExp(`<tr data-loan="${captured.loan.id}">[\\s\\S]*?</tr>`).exec(text)?.[0] ?? '';
    expect(row).toContain('data-overdue="1"');
    expect(row).toContain('1 overdue');
    expect(row).toContain(`>${captured.customer.name}</a>`);
    expect(row).toContain(`>${captured.loan.id}</a>`);
    expect(row).toContain(`contract ${captured.loan.ccb_number}`);
  });

  it('a loan is titled by its id, its contract number and customer name beside it', async () => {
    const { text } = await page(`/dashboard/loans/${captured.loan.id}`);
    expect(text).toContain(`<h1>Loan ${captured.loan.id}</h1>`);
    expect(text).toContain(`<code data-contract="true">${captured.loan.ccb_number}</code>`);
    expect(text).toContain(`>${captured.customer.name}</a>`);
  });
});

describe('search', () => {
  it('goes from any id of the partner to the page that shows it', async () => {
    const events = await sb.json<{ data: { id: string; type: string }[] }>(
      'GET',
      '/v3/sandbox/events?type=loan.active',
    );
    const endpoint = await sb.json<{ id: string }>('POST', '/v3/webhooks/endpoints', {
      body: { url: 'http://127.0.0.1:9/x' },
    });
    const requests = await sb.json<{ data: { id: string }[] }>('GET', '/v3/sandbox/requests?limit=1');
    const expected: [string, string][] = [
      [captured.customer.id, `/dashboard/customers/${captured.customer.id}`],
      [captured.offer.id, `/dashboard/customers/${captured.customer.id}#offers`],
      [captured.simulation.id, `/dashboard/loans/${captured.loan.id}`],
      [captured.loan.id, `/dashboard/loans/${captured.loan.id}`],
      [captured.installment.id, `/dashboard/loans/${captured.loan.id}#installments`],
      [endpoint.body.id, `/dashboard/webhooks?endpoint_id=${endpoint.body.id}`],
      [events.body.data[0]?.id ?? '', `/dashboard/loans/${captured.loan.id}`],
      [requests.body.data[0]?.id ?? '', `/dashboard/requests/${requests.body.data[0]?.id}`],
    ];
    for (const [id, to] of expected) {
      const res = await page(`/dashboard/search?q=${id}`);
      expect([res.status, res.location], id).toEqual([303, to]);
    }
  });

  it('finds customers by any part of the name, accents and case ignored', async () => {
    await sb.json('POST', '/v3/customers', { body: { cpf: '529.982.247-25', name: 'João Conceição' } });
    const { text } = await page('/dashboard/search?q=CONCEICAO');
    expect(text).toContain('>João Conceição</a>');
    expect(text).not.toContain(`>${captured.customer.name}</a>`);
    expect((await page('/dashboard/search?q=nobody-like-this')).text).toContain('No customer named like');
  });

  it('does not find another partner’s ids', async () => {
    const other = await newPartnerToken(sb);
    const theirs = await sb.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: '111.444.777-35', name: 'Someone Else' },
      token: other.token,
    });
    const res = await page(`/dashboard/search?q=${theirs.body.id}`);
    expect(res.status).toBe(404);
    expect(res.text).toContain(`No customer ${theirs.body.id} for this partner.`);
  });
});

describe('the Faults form', () => {
  it('adds a rule from a documented operation, an action and how long it lasts; it needs the CSRF token', async () => {
    const form = (await page('/dashboard/faults')).text;
    expect(form).toContain('<option value="POST /loans" selected="">POST /loans</option>');
    expect(form).toContain('value="GET /customers/{customer_id}"');
    expect(form).not.toContain('value="POST /sandbox/');

    const added = await followAction(
      await post(sb, '/dashboard/faults', cookie, {
        _csrf: csrf,
        operation: 'GET /customers/{customer_id}',
        action: 'delay',
        duration: '250ms',
        probability: '0.5',
        expires_in: '10m',
      }),
    );
    expect(added).toMatch(/Fault rule flt_\w+ added: GET \/customers\/\{customer_id\}\./);
    const rules = await sb.json<{ data: Record<string, unknown>[] }>('GET', '/v3/sandbox/faults');
    expect(rules.body.data).toEqual([
      expect.objectContaining({
        match: { method: 'GET', path: '/customers/{customer_id}' },
        action: { delay: '250ms' },
        probability: 0.5,
        times_left: null,
        expires_at: expect.any(String),
      }),
    ]);

    const refused = await followAction(
      await post(sb, '/dashboard/faults', cookie, {
        _csrf: csrf,
        operation: 'POST /loans',
        action: 'lost-502',
        times: '2',
        probability: '0.5',
      }),
    );
    expect(refused).toContain('give either times');
    const forged = await post(sb, '/dashboard/faults', cookie, {
      operation: 'POST /loans',
      action: 'status-503',
    });
    expect(forged.status).toBe(403);
    expect((await sb.json<{ data: unknown[] }>('GET', '/v3/sandbox/faults')).body.data).toHaveLength(1);
    await sb.json('DELETE', '/v3/sandbox/faults');
  });
});

describe('the Snapshots page: export, import, delete', () => {
  it('exports a .snapshot.json.gz, imports it back (multipart upload), deletes; each form needs the CSRF token', async () => {
    await followAction(await post(sb, '/dashboard/snapshots', cookie, { _csrf: csrf, name: 'overdue' }));
    const listed = (await page('/dashboard/snapshots')).text;
    expect(listed).toContain('href="/dashboard/snapshot-files/export?name=overdue"');
    expect(listed).toContain('value="overdue"');
    expect(listed).toContain('enctype="multipart/form-data"');

    const download = await sb.app.request('/dashboard/snapshot-files/export?name=overdue', {
      headers: { cookie },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      'attachment; filename="overdue.snapshot.json.gz"',
    );
    const file = new Uint8Array(await download.arrayBuffer());
    expect(JSON.parse(gunzipSync(file).toString('utf8'))).toMatchObject({
      format: 'credit-sandbox-snapshot',
      name: 'overdue',
    });

    const upload = (fields: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.set(name, value);
      body.set('file', new Blob([file], { type: 'application/gzip' }), 'overdue.snapshot.json.gz');
      return sb.app.request('/dashboard/snapshot-files/import', {
        method: 'POST',
        headers: { cookie },
        body,
      });
    };
    expect((await upload({ name: 'again' })).status).toBe(403);
    const imported = await followAction(await upload({ _csrf: csrf, name: 'again' }));
    expect(imported).toContain('Snapshot again imported and restored.');
    const names = await sb.json<{ data: { name: string }[] }>('GET', '/v3/sandbox/snapshots');
    expect(names.body.data.map((s) => s.name).sort()).toEqual(['again', 'overdue']);

    expect((await post(sb, '/dashboard/snapshot-files/delete', cookie, { name: 'overdue' })).status).toBe(
      403,
    );
    const deleted = await followAction(
      await post(sb, '/dashboard/snapshot-files/delete', cookie, { _csrf: csrf, name: 'overdue' }),
    );
    expect(deleted).toContain('Snapshot overdue deleted.');
    const left = await sb.json<{ data: { name: string }[] }>('GET', '/v3/sandbox/snapshots');
    expect(left.body.data.map((s) => s.name)).toEqual(['again']);
  });
});
