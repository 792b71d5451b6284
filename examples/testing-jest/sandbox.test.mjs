test('gets a token from the sandbox the global setup started', async () => {
  const { SANDBOX_URL, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } = process.env;
  const basic = Buffer.from(`${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`).toString('base64');
  const res = await fetch(`${SANDBOX_URL}/auth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
  expect(res.status).toBe(200);
  expect((await res.json()).access_token).toMatch(/^svc_at_/);
});
