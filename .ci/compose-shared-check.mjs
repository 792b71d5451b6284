// The checks .ci/compose-shared.sh runs through the load balancer of docker-compose.shared.yml.
//   write <base> <state.json>  creates partners (through the default partner) and writes customers
//                              to each, recording every write the balancer acknowledged (201)
//   load <base> <state.json> <seconds>  keeps writing to every partner for that long (the instance
//                              is killed meanwhile); records acknowledged writes and, per partner,
//                              the longest stretch without an answer
//   check <base> <state.json>  every acknowledged write is there, every partner answers
// Plain Node (fetch), no dependencies: it runs from the repository on the CI host.
import { readFileSync, writeFileSync } from 'node:fs';

const [mode, base, stateFile, seconds] = process.argv.slice(2);
const CLIENT = ['cid_sandbox_default', 'svc_cs_test_sandbox_default_secret'];
const PARTNERS = 6;
const basic = (id, secret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
let keys = 0;

async function send(path, init = {}) {
  // A broken connection or a 502/503 while an instance dies was not acknowledged: send again,
  // with the same Idempotency-Key (so a write that did commit is replayed, not repeated).
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${base}${path}`, init);
      // 429: the partner's rate limit (100 a second by default) says nothing of the write or the
      // row asked for; wait as it says and ask again, as a well-behaved client does.
      if (res.status === 429) {
        await res.arrayBuffer();
        const wait = Number(res.headers.get('retry-after') ?? '1');
        await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait) * 1000));
        if (attempt > 300) throw new Error(`rate limited for good: ${path}`);
        continue;
      }
      if (res.status !== 502 && res.status !== 503 && res.status !== 504) return res;
      await res.arrayBuffer();
    } catch {}
    if (attempt > 300) throw new Error(`no answer for ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function token(id, secret) {
  const res = await send('/v3/auth/token', { method: 'POST', headers: { authorization: basic(id, secret) } });
  if (res.status !== 200) throw new Error(`token for ${id}: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

function cpf(n) {
  const digits = String(100000000 + n).slice(-9).split('').map(Number);
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += digits[i] * (len + 1 - i);
    const d = (sum * 10) % 11;
    digits.push(d === 10 ? 0 : d);
  }
  return digits.join('');
}

async function customer(partner, n) {
  const body = JSON.stringify({
    cpf: cpf(n),
    name: `Cliente ${n}`,
    email: `c${n}@example.com`,
    phone: '+5511987654321',
  });
  const res = await send('/v3/customers', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${partner.token}`,
      'content-type': 'application/json',
      'idempotency-key': `ci-${process.pid}-${keys++}`,
    },
    body,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`customer ${n}: ${res.status} ${text}`);
  return JSON.parse(text).id;
}

const state = () => JSON.parse(readFileSync(stateFile, 'utf8'));
const save = (s) => writeFileSync(stateFile, JSON.stringify(s));

if (mode === 'write') {
  const admin = await token(...CLIENT);
  const partners = [];
  for (let i = 0; i < PARTNERS; i++) {
    const res = await send('/v3/sandbox/partners', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `compose-ci-${i}` }),
    });
    if (res.status !== 201) throw new Error(`partner ${i}: ${res.status} ${await res.text()}`);
    const created = await res.json();
    const partner = { id: created.id, clientId: created.client_id, secret: created.client_secret, customers: [] };
    partner.token = await token(partner.clientId, partner.secret);
    for (let n = 0; n < 3; n++) partner.customers.push(await customer(partner, i * 1000 + n));
    partners.push(partner);
  }
  save({ partners, next: 500 });
  console.log(`wrote ${partners.length} partners, ${partners.length * 3} customers`);
} else if (mode === 'load') {
  const s = state();
  const until = Date.now() + Number(seconds) * 1000;
  let n = s.next;
  let longest = 0;
  await Promise.all(
    s.partners.map(async (partner, i) => {
      while (Date.now() < until) {
        const started = Date.now();
        partner.customers.push(await customer(partner, i * 1000 + n++));
        longest = Math.max(longest, Date.now() - started);
      }
    }),
  );
  s.next = n;
  save(s);
  const total = s.partners.reduce((sum, p) => sum + p.customers.length, 0);
  console.log(`load: ${total} acknowledged customers in all; longest wait for an answer ${longest} ms`);
} else if (mode === 'check') {
  const s = state();
  let missing = 0;
  let found = 0;
  for (const partner of s.partners) {
    partner.token = await token(partner.clientId, partner.secret);
    for (const id of partner.customers) {
      const res = await send(`/v3/customers/${id}`, { headers: { authorization: `Bearer ${partner.token}` } });
      if (res.status === 200) found++;
      else missing++;
      await res.arrayBuffer();
    }
  }
  save(s);
  console.log(`check: ${found} acknowledged customers found, ${missing} missing`);
  process.exit(missing === 0 && found > 0 ? 0 : 1);
} else {
  console.error('usage: compose-shared-check.mjs write|load|check <base> <state.json> [seconds]');
  process.exit(2);
}
