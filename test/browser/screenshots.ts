// Screenshots of the hosted pages for the docs: `npx tsx test/browser/screenshots.ts` writes
// docs/screenshots/*.png (a real sandbox on 127.0.0.1, Debian's headless Chromium, no scripts).
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startBrowserHarness } from './harness.js';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const PNG = readFileSync(new URL('../../fixtures/sample.png', import.meta.url));

const harness = await startBrowserHarness();
const api = async <T>(method: string, path: string, body?: unknown) => {
  const res = await harness.api<T>(method, path, body);
  if (res.status >= 300)
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

async function customer(cpf: string): Promise<string> {
  const { id } = await api<{ id: string }>('POST', '/v3/customers', { cpf, name: 'Maria da Silva' });
  for (const type of ['identity_card_front', 'identity_card_back', 'selfie']) {
    const form = new FormData();
    form.set('type', type);
    form.set('file', new File([new Uint8Array(PNG)], 'doc.png', { type: 'image/png' }));
    await harness.fetch(`/v3/customers/${id}/documents`, { method: 'POST', body: form });
  }
  return id;
}

async function loanAwaitingSignature(cpf: string): Promise<{ id: string; url: string }> {
  const id = await customer(cpf);
  await api('POST', `/v3/customers/${id}/biometrics`);
  await api('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, { outcome: 'approved' });
  await api('POST', `/v3/sandbox/customers/${id}/kyc/approve`);
  const offers = await api<{ data: { id: string; installments?: number; min_installments?: number }[] }>(
    'GET',
    `/v3/customers/${id}/credit-offers`,
  );
  const offer = offers.data[0] as { id: string; installments?: number; min_installments?: number };
  const sim = await api<{ id: string }>('POST', `/v3/credit-offers/${offer.id}/simulations`, {
    requested_amount: '5000.00',
    installment_count: offer.installments ?? offer.min_installments,
  });
  const loan = await api<{ id: string }>('POST', '/v3/loans', {
    credit_offer_id: offer.id,
    simulation_id: sim.id,
  });
  await api('POST', '/v3/sandbox/clock/advance', { by: '3s' });
  const awaiting = await api<{ signing_url: string }>('GET', `/v3/loans/${loan.id}`);
  return { id: loan.id, url: awaiting.signing_url };
}

async function shoot(url: string, name: string): Promise<void> {
  const tab = await harness.browser.newPage();
  await tab.setViewportSize({ width: 900, height: 500 });
  await tab.goto(url);
  await tab.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
  await tab.close();
}

try {
  mkdirSync(OUT, { recursive: true });
  const waiting = await loanAwaitingSignature('123.456.007-05');
  await shoot(waiting.url, 'contract-awaiting-signature');
  const declined = await loanAwaitingSignature('987.654.321-00');
  await api('POST', `/v3/sandbox/loans/${declined.id}/decline`);
  await shoot(declined.url, 'contract-cancelled');

  const pending = await customer('111.444.777-35');
  const session = await api<{ session_url: string }>('POST', `/v3/customers/${pending}/biometrics`);
  await shoot(session.session_url, 'biometrics-capture');
  await api('POST', '/v3/sandbox/clock/advance', { by: '16m' });
  await shoot(session.session_url, 'biometrics-expired');
  console.log(`screenshots written to ${OUT}`);
} finally {
  await harness.close();
}
