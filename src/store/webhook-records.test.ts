import { describe, expect, it } from 'vitest';
import { Store } from './store.js';
import {
  MAX_PREVIOUS_SECRETS,
  upgradeEndpointRow,
  type WebhookEndpointRecord,
  WebhookEndpointRecordSchema,
} from './webhook-records.js';

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

describe('WebhookEndpointRecordSchema (imports and stored rows are checked against it)', () => {
  const secret = (n: number) => `whsec_${String(n).padStart(2, '0')}${'A'.repeat(30)}`;
  const row = {
    ...current,
    id: `we_${'a'.repeat(32)}`,
    partner_id: `ptn_${'b'.repeat(32)}`,
    secret: secret(0),
    previous_secrets: [{ secret: secret(1), expires_at: '2026-03-02T13:00:00.000Z' }],
  };
  const legacyRow = (previous: unknown, expiresAt: unknown) => {
    const { previous_secrets: _dropped, ...rest } = row;
    return { ...rest, previous_secret: previous, previous_secret_expires_at: expiresAt };
  };

  it('accepts rows of today and rows written before (read as previous_secrets)', () => {
    expect(WebhookEndpointRecordSchema.parse(row)).toEqual(row);
    expect(WebhookEndpointRecordSchema.parse(legacyRow(secret(1), '2026-03-02T13:00:00.000Z'))).toEqual(row);
    expect(WebhookEndpointRecordSchema.parse(legacyRow(null, null))).toEqual({
      ...row,
      previous_secrets: [],
    });
  });

  it('refuses more than MAX_PREVIOUS_SECRETS, bad secrets and legacy fields no version wrote', () => {
    const many = Array.from({ length: MAX_PREVIOUS_SECRETS + 1 }, (_, i) => ({
      secret: secret(i + 1),
      expires_at: '2026-03-02T13:00:00.000Z',
    }));
    expect(
      WebhookEndpointRecordSchema.safeParse({ ...row, previous_secrets: many.slice(0, 10) }).success,
    ).toBe(true);
    expect(WebhookEndpointRecordSchema.safeParse({ ...row, previous_secrets: many }).success).toBe(false);
    const bad = { ...row, previous_secrets: [{ secret: 'nope', expires_at: '2026-03-02T13:00:00.000Z' }] };
    expect(WebhookEndpointRecordSchema.safeParse(bad).error?.issues[0]?.path).toEqual([
      'previous_secrets',
      0,
      'secret',
    ]);
    // One of the pair without the other, or of another type: named, not dropped unseen.
    for (const [previous, expiresAt] of [
      [secret(1), null],
      [null, '2026-03-02T13:00:00.000Z'],
      [42, '2026-03-02T13:00:00.000Z'],
    ]) {
      expect(WebhookEndpointRecordSchema.safeParse(legacyRow(previous, expiresAt)).success).toBe(false);
    }
    expect(
      WebhookEndpointRecordSchema.safeParse(legacyRow('whsec_short', '2026-03-02T13:00:00.000Z')).success,
    ).toBe(false);
  });
});
