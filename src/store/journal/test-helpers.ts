import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CustomerRecord } from '../records.js';
import type { Store } from '../store.js';

/** A fresh `--data` path in its own temporary directory. */
export function tempDataFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'credit-sandbox-journal-')), 'data.json');
}

/** Inserts a partner row (the smallest row kind) and returns its id. */
export function addPartner(store: Store, id: string, name = id): string {
  store.partners.insert({
    id,
    seq: store.nextSeq(),
    name,
    created_at: '2026-01-01T00:00:00.000Z',
    clock: { offset_ms: 0, frozen_at_ms: 1 },
  });
  return id;
}

/** A pending customer row of `partnerId`, its seq the store's next. */
export function customerRow(store: Store, id: string, partnerId: string, name: string): CustomerRecord {
  return {
    id,
    seq: store.nextSeq(),
    partner_id: partnerId,
    status: 'pending_kyc',
    cpf: `cpf-${id}`,
    cnpj: null,
    name,
    email: null,
    phone: null,
    trading_name: null,
    external_id: null,
    kyc: [],
    review_job_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}
