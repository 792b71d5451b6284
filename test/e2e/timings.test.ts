import { describe, expect, it } from 'vitest';
import { parseTimings } from '../../src/engine/timings.js';
import {
  activeCustomer,
  createLoan,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
} from '../support/credit.js';
import { advance, createCustomer, upload } from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const DAY = 86_400_000;

describe('--timings', () => {
  it('moves the document review to the configured delay', async () => {
    const sandbox = createTestSandbox({ timings: parseTimings('document_review=1m') });
    const customer = await createCustomer(sandbox);
    const uploaded = await upload(sandbox, customer.id, 'selfie');
    const location = uploaded.headers.get('location') as string;
    await advance(sandbox, '59s');
    expect((await sandbox.json<{ status: string }>('GET', location)).body.status).toBe('submitted');
    await advance(sandbox, '1s');
    expect((await sandbox.json<{ status: string }>('GET', location)).body.status).toBe('approved');
  });

  it('sets offer validity and the loan lifecycle delays', async () => {
    const sandbox = createTestSandbox({
      timings: parseTimings('offer_validity=7d,contract_generation=1h,signature_request=0s'),
    });
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
    expect(Date.parse(offer.valid_until) - Date.parse(offer.created_at)).toBe(7 * DAY);
    const sim = await simulate(sandbox, offer.id, '10000.00', 12);
    const loan = await createLoan(sandbox, offer.id, sim.id);
    await advance(sandbox, '59m');
    expect((await getLoan(sandbox, loan.id)).status).toBe('processing');
    // The contract after one hour, and the signature request in the same instant (0 s).
    await advance(sandbox, '1m');
    expect((await getLoan(sandbox, loan.id)).status).toBe('awaiting_signatures');
  });
});
