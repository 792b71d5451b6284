import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from './jwt.js';

const key = Buffer.alloc(32, 9);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('HS256 JWT', () => {
  it('round-trips claims', () => {
    expect(verifyJwt(signJwt({ sub: 'a', exp: 5 }, key), key)).toEqual({ sub: 'a', exp: 5 });
  });

  it('refuses another key, a changed payload, alg none and alg confusion', () => {
    const token = signJwt({ sub: 'a' }, key);
    const [header, , signature] = token.split('.');
    expect(verifyJwt(token, Buffer.alloc(32, 1))).toBeUndefined();
    expect(verifyJwt(`${header}.${b64({ sub: 'b' })}.${signature}`, key)).toBeUndefined();
    expect(verifyJwt(`${b64({ alg: 'none' })}.${b64({ sub: 'a' })}.`, key)).toBeUndefined();
    const hs512Body = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64({ sub: 'a' })}`;
    const hs512 = `${hs512Body}.${createHmac('sha256', key).update(hs512Body).digest('base64url')}`;
    expect(verifyJwt(hs512, key)).toBeUndefined();
  });

  it('refuses malformed tokens without throwing', () => {
    for (const bad of ['', 'a', 'a.b', 'a.b.c.d', '!!.!!.!!', `${b64('str')}.${b64([1])}.x`]) {
      expect(verifyJwt(bad, key)).toBeUndefined();
    }
  });
});
