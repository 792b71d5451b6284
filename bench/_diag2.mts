import { sandbox, token } from './snapshots.js';
import { measureWorldRowsWhenIdle } from '../src/store/partner-world.js';
import { generateCpf } from '../src/finance/cpf.js';
const sb = sandbox({ measureRowsWhenIdle: false });
const sizer = measureWorldRowsWhenIdle(sb.deps.store, (d) => setImmediate(d).unref());
const admin = await token(sb, 'cid_bench', 'svc_cs_test_bench');
const created = await sb.call('POST', '/v3/sandbox/partners', admin, { name: 'writer', clock: 'frozen' });
const tok = await token(sb, String(created.client_id), String(created.client_secret));
await sb.idle();
const before = sizer.stats();
const N = 2000;
for (let k = 0; k < N; k++) { await sb.call('POST', '/v3/customers', tok, { cpf: generateCpf(String(5e8 + k)), name: `C ${k}` }); await sb.idle(); }
await sb.idle();
const after = sizer.stats();
console.log('rows/req', (after.measuredRows - before.measuredRows) / N, 'bytes/req', (after.measuredBytes - before.measuredBytes) / N);
const rows = [...(sb.deps.store as any).customers.values()].slice(-1000);
const t = process.cpuUsage(); let b = 0;
for (let r = 0; r < 5; r++) for (const row of rows) b += Buffer.byteLength(JSON.stringify(row));
const u = process.cpuUsage(t); console.log('stringify µs per customer row', (u.user + u.system) / 5000, b / 5000);
console.log(JSON.stringify(rows[0]));

