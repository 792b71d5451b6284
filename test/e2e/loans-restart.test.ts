import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomIds } from '../../src/lib/ids.js';
import { Store } from '../../src/store/store.js';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  eventsOf,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
  transactionsOf,
} from '../support/credit.js';
import { openJournal } from '../support/journal.js';
import { createTestSandbox } from '../support/sandbox.js';

describe('credit state across a restart with --data', () => {
  it('keeps offers, loans, the signing page and every pending job', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-')), 'sandbox.json');
    const store = new Store(Buffer.alloc(32, 3).toString('base64url'));
    const first = createTestSandbox({}, { store, persistence: await openJournal(path, store) });
    const a = await activeCustomer(first, { cpf: TIER_CPF.standard });
    const b = await activeCustomer(first, { cpf: TIER_CPF.starter });
    const offer = (await offersOf(first, a.id))[0] as OfferBody;
    const untouched = (await offersOf(first, b.id))[0] as OfferBody;
    const sim = await simulate(first, offer.id, '2000.00', 12);
    const loan = await createLoan(first, offer.id, sim.id);
    await advanceClock(first, { by: '3s' });
    const awaiting = await getLoan(first, loan.id);
    expect(awaiting.status).toBe('awaiting_signatures');
    // Make the last request's writes durable (every non-GET request flushes).
    await advanceClock(first, { by: '0s' });

    const restored = new Store('another-key');
    const second = createTestSandbox(
      {},
      { store: restored, persistence: await openJournal(path, restored), ids: randomIds },
    );
    expect(await getLoan(second, loan.id)).toEqual(awaiting);
    const page = await second.app.request(`${new URL(awaiting.signing_url as string).pathname}/sign`, {
      method: 'POST',
    });
    expect(page.status).toBe(303);
    await advanceClock(second, { by: '5s' });
    expect((await getLoan(second, loan.id)).status).toBe('active');
    expect(await transactionsOf(second, loan.id)).toHaveLength(12);
    // The other customer's offer still expires on time.
    await advanceClock(second, { to: untouched.valid_until });
    expect((await second.json<OfferBody>('GET', `/v3/credit-offers/${untouched.id}`)).body.status).toBe(
      'expired',
    );
    const expired = await eventsOf(second, 'credit_offer.expired');
    expect(expired.map((e) => e.data.id)).toEqual([untouched.id]);
  });
});
