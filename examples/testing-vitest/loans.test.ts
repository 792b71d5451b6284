import { expect, inject, it } from 'vitest';

// Your code under test would take these from its configuration; here a plain fetch stands in.
async function token(): Promise<string> {
  const basic = Buffer.from(`${inject('clientId')}:${inject('clientSecret')}`).toString('base64');
  const res = await fetch(`${inject('sandboxUrl')}/auth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
  return ((await res.json()) as { access_token: string }).access_token;
}

it('registers a customer in the sandbox the global setup started', async () => {
  const res = await fetch(`${inject('sandboxUrl')}/customers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cpf: '52998224725', name: 'Ana Souza', email: 'ana@example.com' }),
  });
  expect(res.status).toBe(201);
  expect(((await res.json()) as { status: string }).status).toBe('pending_kyc');
});
