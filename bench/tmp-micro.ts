import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, ensureDefaultPartner } from '../src/default-partner.js';
import { createDeps } from '../src/deps.js';
import { createApp } from '../src/http/app.js';
import { DEFAULT_CONFIG } from '../src/http/deps.js';
import { cryptoRandomBytes, randomIds } from '../src/lib/ids.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { Store } from '../src/store/store.js';

async function measure(size: number, n: number): Promise<number> {
  const deps = createDeps({
    store: new Store('k'),
    persistence: memoryPersistence,
    ids: randomIds,
    randomBytes: cryptoRandomBytes,
    realNow: () => Date.now(),
    config: { ...DEFAULT_CONFIG, rateLimit: 0, clockMode: 'frozen', requestLogSize: size },
    log: { info() {}, error: console.error },
  });
  ensureDefaultPartner(deps, { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET }, 'frozen');
  const app = createApp(deps);
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const t = (await (
    await app.request('/v3/auth/token', { method: 'POST', headers: { authorization: `Basic ${basic}` } })
  ).json()) as { access_token: string };
  const headers = { authorization: `Bearer ${t.access_token}` };
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await app.request('/v3/sandbox/clock', { headers });
    await res.text();
  }
  const ms = performance.now() - started;
  deps.engine.stop();
  return (ms * 1000) / n;
}
for (let r = 0; r < 3; r++) {
  console.log(
    'on',
    (await measure(1000, 20000)).toFixed(1),
    'µs/req; off',
    (await measure(0, 20000)).toFixed(1),
    'µs/req',
  );
}
