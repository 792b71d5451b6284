import { describe, expect, it } from 'vitest';
import { issueAccessToken } from '../domain/access-tokens.js';
import { fixedClock } from '../engine/clock.js';
import type { CredentialRecord } from '../store/records.js';
import { Store } from '../store/store.js';
import { TokenCache } from './token-cache.js';

const KEY_A = Buffer.alloc(32, 1).toString('base64url');
const KEY_B = Buffer.alloc(32, 2).toString('base64url');

function token(key: string, partner: string, jti: string): string {
  const credential = { id: `cred_${partner}`, partner_id: partner } as CredentialRecord;
  return issueAccessToken(credential, fixedClock(1_000_000), Buffer.from(key, 'base64url'), jti).access_token;
}

describe('TokenCache', () => {
  it('verifies a token once, then answers it (and others in turn) from the cache', () => {
    const cache = new TokenCache(new Store(KEY_A));
    const one = token(KEY_A, 'ptn_1', 'j1');
    const two = token(KEY_A, 'ptn_2', 'j2');
    expect(cache.cached(one)).toBeUndefined();
    expect(cache.verify(one).partnerId).toBe('ptn_1');
    expect(cache.verify(two).partnerId).toBe('ptn_2');
    for (let i = 0; i < 3; i++) {
      expect(cache.cached(one)?.partnerId).toBe('ptn_1');
      expect(cache.cached(`${one}`)?.partnerId).toBe('ptn_1');
      expect(cache.cached(two)?.partnerId).toBe('ptn_2');
    }
    expect(cache.cached(`${one}x`)).toBeUndefined();
    expect(cache.verifications).toBe(2);
  });

  it('answers nothing from before a signing key change, not even the last token it answered', () => {
    const store = new Store(KEY_A);
    const cache = new TokenCache(store);
    const old = token(KEY_A, 'ptn_1', 'j1');
    cache.verify(old);
    expect(cache.cached(old)?.partnerId).toBe('ptn_1');
    store.meta.signing_key = KEY_B;
    expect(cache.cached(old)).toBeUndefined();
    expect(() => cache.verify(old)).toThrow();
    const fresh = token(KEY_B, 'ptn_1', 'j2');
    cache.verify(fresh);
    expect(cache.cached(old)).toBeUndefined();
    expect(cache.cached(fresh)?.partnerId).toBe('ptn_1');
  });

  it('when full, empties itself, the last token answered included', () => {
    const cache = new TokenCache(new Store(KEY_A), 2);
    const [a, b, c] = ['j1', 'j2', 'j3'].map((jti) => token(KEY_A, 'ptn_1', jti)) as [string, string, string];
    cache.verify(a);
    cache.verify(b);
    expect(cache.cached(b)).toBeDefined();
    cache.verify(c);
    expect(cache.size).toBe(1);
    expect(cache.cached(a)).toBeUndefined();
    expect(cache.cached(b)).toBeUndefined();
    expect(cache.cached(c)).toBeDefined();
  });
});
