// A minimal partner app for docker-compose.example.yml: on start it registers its own webhook
// endpoint on the sandbox (as a partner does once), keeps the signing secret it gets back, and
// verifies every delivery by the Standard Webhooks rules before answering 200. No dependencies.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SANDBOX_URL = process.env.SANDBOX_URL ?? 'http://sandbox:8080';
const PUBLIC_URL = process.env.PUBLIC_URL ?? 'http://app:3000';
const CLIENT_ID = process.env.CREDIT_SANDBOX_CLIENT_ID ?? 'cid_sandbox_default';
const CLIENT_SECRET = process.env.CREDIT_SANDBOX_CLIENT_SECRET ?? 'svc_cs_test_sandbox_default_secret';
const PORT = Number(process.env.PORT ?? 3000);

async function api(method, path, body) {
  const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');
  const auth = await fetch(`${SANDBOX_URL}/v3/auth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
  const { access_token } = await auth.json();
  const res = await fetch(`${SANDBOX_URL}/v3${path}`, {
    method,
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Standard Webhooks: base64(HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")), 5 min tolerance. */
function verify(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'] ?? '';
  if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return signatures.split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature);
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

let secret;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || req.url !== '/webhooks' || !secret || !verify(secret, req.headers, body)) {
      console.log(`rejected ${req.method} ${req.url} (bad or missing signature)`);
      res.writeHead(400).end();
      return;
    }
    const event = JSON.parse(body);
    console.log(`${event.timestamp}  ${event.type}  ${req.headers['webhook-id']}  ${event.data.id ?? ''}`);
    res.writeHead(200).end();
  });
});
server.listen(PORT, '0.0.0.0', async () => {
  // The sandbox may still be starting: try for a while.
  for (let attempt = 1; ; attempt += 1) {
    try {
      const endpoint = await api('POST', '/webhooks/endpoints', {
        url: `${PUBLIC_URL}/webhooks`,
        description: 'docker-compose example app',
      });
      secret = endpoint.secret;
      console.log(`listening on :${PORT}; registered ${endpoint.id} -> ${endpoint.url}`);
      return;
    } catch (error) {
      if (attempt >= 30) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
});
