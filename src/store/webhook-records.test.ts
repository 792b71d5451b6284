import { describe, expect, it } from 'vitest';
import { Store } from './store.js';
import { upgradeEndpointRow, type WebhookEndpointRecord } from './webhook-records.js';

const current: WebhookEndpointRecord = {
  id: 'we_1',
  seq: 1,
  partner_id: 'ptn_1',
  url: 'https://a.example.com',
  events: [],
  description: '',
  status: 'active',
  secret: 'whsec_new',
  previous_secrets: [{ secret: 'whsec_old', expires_at: '2026-03-02T13:00:00.000Z' }],
  created_at: '2026-03-02T12:00:00.000Z',
  updated_at: '2026-03-02T12:00:00.000Z',
};

/** The row as versions before `previous_secrets` wrote it. */
function legacy(previous: string | null, expiresAt: string | null): WebhookEndpointRecord {
  const { previous_secrets: _dropped, ...rest } = current;
  return {
    ...rest,
    previous_secret: previous,
    previous_secret_expires_at: expiresAt,
  } as unknown as WebhookEndpointRecord;
}

describe('endpoint rows written before several previous secrets were kept', () => {
  it('reads the one previous secret of an old row into previous_secrets, and no legacy field stays', () => {
    expect(upgradeEndpointRow(legacy('whsec_old', '2026-03-02T13:00:00.000Z'))).toEqual(current);
    expect(upgradeEndpointRow(legacy(null, null))).toEqual({ ...current, previous_secrets: [] });
  });

  it('hands a current row back as it is (no copy)', () => {
    expect(upgradeEndpointRow(current)).toBe(current);
  });

  it('upgrades rows on every way into the store: a snapshot load and a replayed change set', () => {
    const loaded = new Store('k');
    loaded.restore({
      version: 1,
      meta: { seq: 1, signing_key: 'k' },
      tables: { webhook_endpoints: [legacy('whsec_old', '2026-03-02T13:00:00.000Z')] },
    });
    expect(loaded.webhookEndpoints.get('we_1')).toEqual(current);

    const replayed = new Store('k');
    replayed.applyChangeSet({
      meta: { seq: 1, signing_key: 'k' },
      tables: {
        webhook_endpoints: { upserts: [legacy('whsec_old', '2026-03-02T13:00:00.000Z')], deletes: [] },
      },
    });
    expect(replayed.webhookEndpoints.get('we_1')).toEqual(current);
  });
});
