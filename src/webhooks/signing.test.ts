import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { formatSecret, signatureHeader } from './signing.js';

const SECRET = formatSecret(Buffer.alloc(24, 7));
const OTHER = formatSecret(Buffer.from('0123456789abcdef0123456789abcdef', 'hex'));
const SENT_AT = new Date('2026-03-02T12:00:00.999Z');

describe('signatureHeader (node:crypto) agrees with the standardwebhooks package', () => {
  it.each([
    ['an ASCII body', '{"type":"loan.active","data":{"id":"ln_1"}}'],
    ['a body with accents and emoji', '{"type":"customer.active","data":{"name":"João Conceição 🎉"}}'],
    ['an empty body', ''],
  ])('%s', (_name, payload) => {
    const header = signatureHeader([SECRET, OTHER], 'evt_1', SENT_AT, payload);
    const [first, second, ...rest] = header.split(' ');
    expect(rest).toEqual([]);
    expect(first).toBe(new Webhook(SECRET).sign('evt_1', SENT_AT, payload));
    expect(second).toBe(new Webhook(OTHER).sign('evt_1', SENT_AT, payload));
  });

  it('is what a receiver using the package accepts, with either secret', () => {
    const payload = '{"type":"loan.active","timestamp":"2026-03-02T12:00:00.000Z","data":{}}';
    const now = new Date();
    const headers = {
      'webhook-id': 'evt_2',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatureHeader([OTHER, SECRET], 'evt_2', now, payload),
    };
    expect(new Webhook(SECRET).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(new Webhook(OTHER).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(formatSecret(Buffer.alloc(24, 1))).verify(payload, headers)).toThrow();
  });
});
