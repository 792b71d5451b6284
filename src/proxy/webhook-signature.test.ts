import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifySignature } from './webhook-signature.js';

const secret = () => `whsec_${randomBytes(24).toString('base64')}`;

function signed(key: string, body: string, id = 'evt_1', at = Math.floor(Date.now() / 1000)) {
  const date = new Date(at * 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(at),
    'webhook-signature': new Webhook(key).sign(id, date, body),
  };
}

describe('Standard Webhooks verification', () => {
  it('agrees with the standardwebhooks package on any JSON body, with any of several secrets', () => {
    fc.assert(
      fc.property(fc.json(), fc.integer({ min: 0, max: 2 }), (body, which) => {
        const secrets = [secret(), secret(), secret()];
        const headers = signed(secrets[which]!, body);
        const verdict = verifySignature(secrets, headers, Buffer.from(body), Date.now());
        expect(verdict).toEqual({ valid: true, secretIndex: which });
        // The package's own verifier agrees.
        expect(() => new Webhook(secrets[which]!).verify(body, headers)).not.toThrow();
      }),
      { numRuns: 50 },
    );
  });

  it('accepts a rotation header with two signatures, refuses a wrong secret, a changed body, an old timestamp', () => {
    const [oldKey, newKey, other] = [secret(), secret(), secret()];
    const body = '{"type":"loan.active"}';
    const both = signed(oldKey, body);
    both['webhook-signature'] = `${signed(newKey, body)['webhook-signature']} ${both['webhook-signature']}`;
    expect(verifySignature([oldKey], both, Buffer.from(body), Date.now()).valid).toBe(true);
    expect(verifySignature([other], both, Buffer.from(body), Date.now())).toEqual({
      valid: false,
      reason: 'no signature matches any of the 1 known secret',
    });
    expect(verifySignature([oldKey], both, Buffer.from(`${body} `), Date.now()).valid).toBe(false);
    const old = signed(oldKey, body, 'evt_1', Math.floor(Date.now() / 1000) - 3600);
    expect(verifySignature([oldKey], old, Buffer.from(body), Date.now())).toMatchObject({ valid: false });
    expect(verifySignature([oldKey], {}, Buffer.from(body), Date.now())).toEqual({
      valid: false,
      reason: 'no webhook-id, webhook-timestamp, webhook-signature header',
    });
    expect(verifySignature([], signed(oldKey, body), Buffer.from(body), Date.now())).toMatchObject({
      valid: false,
    });
  });
});
