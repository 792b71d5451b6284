import { describe, expect, it } from 'vitest';
import {
  csrfToken,
  type DashboardSession,
  openSession,
  sealSession,
  sessionKey,
  signInToken,
  validCsrf,
  validSignInToken,
} from './session.js';

const key = sessionKey(Buffer.alloc(32, 7).toString('base64url'));
const session: DashboardSession = {
  partnerId: 'ptn_1',
  clientId: 'cid_1',
  sid: 'sid_1',
  expiresAtMs: 2_000,
};

describe('dashboard session', () => {
  it('opens what it sealed until it expires', () => {
    const sealed = sealSession(session, key);
    expect(openSession(sealed, key, 1_999)).toEqual(session);
    expect(openSession(sealed, key, 2_000)).toBeUndefined();
  });

  it('refuses a tampered payload, another key and garbage', () => {
    const sealed = sealSession(session, key);
    const [payload, signature] = sealed.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ p: 'ptn_2', c: 'cid_1', s: 'sid_1', e: 2_000 })).toString(
      'base64url',
    );
    expect(openSession(`${forged}.${signature}`, key, 0)).toBeUndefined();
    expect(openSession(`${payload}.${signature}x`, key, 0)).toBeUndefined();
    expect(openSession(sealed, sessionKey(Buffer.alloc(32, 8).toString('base64url')), 0)).toBeUndefined();
    expect(openSession('nonsense', key, 0)).toBeUndefined();
    expect(openSession(undefined, key, 0)).toBeUndefined();
  });

  it('never carries a secret: only partner, client id, sign-in id and expiry', () => {
    const payload = (sealSession(session, key).split('.')[0] ?? '') as string;
    expect(Object.keys(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))).toEqual([
      'p',
      'c',
      's',
      'e',
    ]);
  });

  it('binds the CSRF token to the sign-in', () => {
    expect(validCsrf(session, key, csrfToken(session, key))).toBe(true);
    expect(validCsrf(session, key, csrfToken({ ...session, sid: 'sid_2' }, key))).toBe(false);
    expect(validCsrf(session, key, undefined)).toBe(false);
  });

  it('checks the sign-in form token against its cookie nonce', () => {
    expect(validSignInToken('n1', key, signInToken('n1', key))).toBe(true);
    expect(validSignInToken('n2', key, signInToken('n1', key))).toBe(false);
    expect(validSignInToken(undefined, key, signInToken('n1', key))).toBe(false);
  });
});
