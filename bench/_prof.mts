import { sandbox, token } from './snapshots.js';
import { generateCpf } from '../src/finance/cpf.js';
const sb = sandbox({ measureRowsWhenIdle: process.env.OFF ? false : true });
const admin = await token(sb, 'cid_bench', 'svc_cs_test_bench');
const created = await sb.call('POST', '/v3/sandbox/partners', admin, { name: 'writer', clock: 'frozen' });
const tok = await token(sb, String(created.client_id), String(created.client_secret));
const N = 6000;
const t = process.cpuUsage();
for (let k = 0; k < N; k++) { await sb.call('POST', '/v3/customers', tok, { cpf: generateCpf(String(5e8 + k)), name: `C ${k}` }); await sb.idle(); }
const u = process.cpuUsage(t);
console.log('µs/req', (u.user + u.system) / N);
