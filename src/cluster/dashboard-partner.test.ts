import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE, sealSession } from '../dashboard/session.js';
import { sessionPartner, signInClientId } from './dashboard-partner.js';

const key = Buffer.alloc(32, 7);
const cookie = (value: string) => `theme=dark; ${SESSION_COOKIE}=${value}; other=1`;

describe('sessionPartner', () => {
  it('reads the partner of a session cookie without its key (the owner checks the seal)', () => {
    const sealed = sealSession({ partnerId: 'ptn_a', clientId: 'cid_a', sid: 's', expiresAtMs: 1 }, key);
    expect(sessionPartner(cookie(sealed))).toBe('ptn_a');
  });

  it.each([
    undefined,
    '',
    'theme=dark',
    cookie('not-base64-json.mac'),
    cookie(`${Buffer.from('{"p":42}').toString('base64url')}.mac`),
    cookie(`${Buffer.from('[1,2]').toString('base64url')}.mac`),
  ])('names no partner for %j', (header) => {
    expect(sessionPartner(header)).toBeUndefined();
  });
});

describe('signInClientId', () => {
  const form = (body: string, headers: Record<string, string> = {}) =>
    new Request('http://x/dashboard/sign-in', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(body.length),
        ...headers,
      },
      body,
    });

  it('reads client_id from the form and leaves the body unread for the handler', async () => {
    const request = form('_csrf=t&client_id=%20cid_x%20&client_secret=s');
    expect(await signInClientId(request)).toBe('cid_x');
    expect(await request.text()).toBe('_csrf=t&client_id=%20cid_x%20&client_secret=s');
  });

  it('reads nothing from a large, unsized or non-form body', async () => {
    expect(await signInClientId(form(`client_id=${'a'.repeat(70_000)}`))).toBeUndefined();
    expect(await signInClientId(form('client_id=a', { 'content-type': 'application/json' }))).toBeUndefined();
    expect(await signInClientId(form('client_id=', {}))).toBeUndefined();
  });
});
