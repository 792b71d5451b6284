// Cost of customer list pages and KYC updates against the number of customers of a partner:
// 10,000 vs 100,000. A page at a deep cursor must cost the same (the cursor is found by binary
// search in the sorted index of the chosen order); an update re-sorts the row in each order index.
// In-process, median of many runs.

import { createDeps } from '../src/deps.js';
import { moveKycItem } from '../src/domain/customers/kyc-progress.js';
import { listCustomers } from '../src/domain/customers/list-customers.js';
import { registerCustomer } from '../src/domain/customers/register-customer.js';
import { createPartner } from '../src/domain/partners.js';
import { generateCpf } from '../src/finance/cpf.js';
import { DEFAULT_CONFIG } from '../src/http/deps.js';
import { sequentialIds } from '../src/lib/ids.js';
import type { CustomerSort } from '../src/store/customer-indexes.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { Store } from '../src/store/store.js';
import { median } from './support.js';

const NAMES = ['Ana', 'Bruno', 'Carla', 'Davi', 'Elisa', 'Fábio', 'Gabi', 'Hugo'];

function world(count: number) {
  let now = Date.parse('2026-03-02T12:00:00Z');
  const deps = createDeps({
    store: new Store('bench'),
    persistence: memoryPersistence,
    ids: sequentialIds(),
    randomBytes: (size) => Buffer.alloc(size, 1),
    realNow: () => now,
    config: { ...DEFAULT_CONFIG, clockMode: 'running' },
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
    webhookSender: async () => ({ statusCode: 200, retryAfter: null, body: '' }),
  });
  const { partner } = createPartner(deps, { name: 'bench', clockMode: 'running' });
  const ids: string[] = [];
  for (let k = 0; k < count; k++) {
    now += 1000;
    const cpf = generateCpf(String(100_000_000 + k));
    const { customer } = registerCustomer(deps.engine.context(partner.id), {
      cpf,
      name: `${NAMES[k % NAMES.length]} ${k}`,
    });
    ids.push(customer.id);
  }
  return { deps, partnerId: partner.id, ids, tick: () => (now += 1000) };
}

function measure(count: number) {
  const { deps, partnerId, ids, tick } = world(count);
  const pages: Record<string, number> = {};
  for (const sort of ['created_at', 'updated_at', 'name'] as CustomerSort[]) {
    const times: number[] = [];
    for (let run = 0; run < 200; run++) {
      const cursor = ids[Math.floor((run / 200) * ids.length)];
      const start = process.hrtime.bigint();
      listCustomers(deps.store, partnerId, { sort, order: 'desc', limit: 25, starting_after: cursor });
      times.push(Number(process.hrtime.bigint() - start) / 1000);
    }
    pages[sort] = median(times);
  }
  const updates: number[] = [];
  for (let run = 0; run < 200; run++) {
    tick();
    const ctx = deps.engine.context(partnerId);
    const customer = deps.store.customers.get(ids[(run * 7919) % ids.length] as string);
    if (customer?.kyc[2]?.status !== 'pending') continue;
    const start = process.hrtime.bigint();
    moveKycItem(ctx, customer, 'selfie', 'submit');
    updates.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return { pages, update: median(updates) };
}

const small = measure(10_000);
const large = measure(100_000);
console.log('customers  page µs (created_at / updated_at / name)   KYC move µs');
for (const [count, m] of [
  [10_000, small],
  [100_000, large],
] as const) {
  console.log(
    `${String(count).padStart(9)}  ${m.pages.created_at?.toFixed(1)} / ${m.pages.updated_at?.toFixed(1)} / ${m.pages.name?.toFixed(1)}`.padEnd(
      52,
    ) + m.update.toFixed(1),
  );
}
