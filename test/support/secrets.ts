import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';

/** Secret-looking strings the redaction tests send and then look for everywhere. */
export const LEAKS = {
  querySecret: 'svc_cs_test_query_leak_1',
  queryToken: 'svc_at_query_leak_2',
  queryPassword: 'query-password-leak-3',
  headerKey: 'svc_cs_header_leak_4',
  headerAgent: 'whsec_agent_leak_5',
  bodyPassword: 'body-password-leak-6',
  bodyToken: 'body-token-leak-7',
  bodySecret: 'body-secret-leak-8',
  bodyAuthorization: 'body-authorization-leak-9',
  bodyValue: 'whsec_body_value_leak_10',
  pathValue: 'svc_at_path_leak_11',
  formSecret: 'form-secret-leak-12',
};

const basic = `Basic ${Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64')}`;

/**
 * Sends the secrets above (and the default client's real secret and a real access token) in
 * queries, headers, bodies and paths to a running sandbox, as the default partner. Returns the
 * real token used, which must not appear anywhere either.
 */
export async function sendSecrets(base: string): Promise<string> {
  const tokenRes = await fetch(
    `${base}/v3/auth/token?client_id=${DEFAULT_CLIENT_ID}&client_secret=${LEAKS.querySecret}`,
    {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_secret=${LEAKS.formSecret}`,
    },
  );
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const bearer = { authorization: `Bearer ${token}` };
  await fetch(`${base}/v3/sandbox/clock?access_token=${LEAKS.queryToken}&password=${LEAKS.queryPassword}`, {
    headers: bearer,
  });
  await fetch(`${base}/v3/customers/${LEAKS.pathValue}?access_token=${token}`, { headers: bearer });
  await fetch(`${base}/v3/customers`, {
    method: 'POST',
    headers: {
      ...bearer,
      'content-type': 'application/json',
      'idempotency-key': LEAKS.headerKey,
      'user-agent': LEAKS.headerAgent,
    },
    body: JSON.stringify({
      cpf: '529.982.247-25',
      note: LEAKS.bodyValue,
      password: LEAKS.bodyPassword,
      nested: [{ refresh_token: LEAKS.bodyToken, api_secret: LEAKS.bodySecret }],
      Authorization: LEAKS.bodyAuthorization,
    }),
  });
  // A body long enough to be truncated still has its secrets redacted in the kept head.
  await fetch(`${base}/v3/customers`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ password: LEAKS.bodyPassword, note: LEAKS.bodyValue, pad: 'x'.repeat(10_000) }),
  });
  return token;
}

/** The leaked strings found in a text (empty when redaction held). */
export function leaksIn(text: string, token: string): string[] {
  const found = Object.values(LEAKS).filter((leak) => text.includes(leak));
  if (text.includes(DEFAULT_CLIENT_SECRET)) found.push('the client secret');
  if (text.includes(token)) found.push('the access token');
  return found;
}
