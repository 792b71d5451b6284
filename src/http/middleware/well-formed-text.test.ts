import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';
import { findField, isWellFormed, wellFormedText } from './well-formed-text.js';

function app() {
  const a = new Hono<AppEnv>();
  a.use('*', wellFormedText());
  a.post('/', async (c) => c.json({ echoed: await c.req.json() }));
  a.onError((error, c) =>
    error instanceof ApiError
      ? c.json({ param: error.param, detail: error.message }, 400)
      : c.text('boom', 500),
  );
  return a;
}

const post = (body: string | Buffer, type = 'application/json') =>
  app().request('/', { method: 'POST', headers: { 'content-type': type }, body });

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('wellFormedText', () => {
  it('passes well-formed JSON through, decoded once, including escaped surrogate pairs', async () => {
    const res = await post('{"name":"João 😀 \\ud83d\\ude00","list":["ç"]}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echoed: { name: 'João 😀 😀', list: ['ç'] } });
  });

  it('refuses invalid UTF-8 bytes naming the field', async () => {
    const res = await post(bytes('{"cpf":"1","name":"ab', [0xff, 0xfe], '"}'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      param: 'name',
      detail: expect.stringContaining('not valid UTF-8'),
    });
  });

  it('refuses UTF-8-encoded surrogates (CESU-8) as invalid UTF-8', async () => {
    const res = await post(bytes('{"events":["ok","', [0xed, 0xa0, 0x80], '"]}'));
    expect(await res.json()).toMatchObject({ param: 'events.1' });
  });

  it('refuses a lone surrogate escape naming the field, and in a key', async () => {
    const lone = await post('{"profile":{"name":"x\\ud800y"}}');
    expect(lone.status).toBe(400);
    expect(await lone.json()).toMatchObject({
      param: 'profile.name',
      detail: expect.stringContaining('lone surrogate'),
    });
    const low = await post('{"a":"\\udc00"}');
    expect(await low.json()).toMatchObject({ param: 'a' });
    const key = await post('{"\\ud800":"x"}');
    expect(await key.json()).toMatchObject({ param: '\ud800' });
  });

  it('leaves other content types and malformed JSON to the route', async () => {
    const form = await app().request('/', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: bytes([0xff]),
    });
    expect(form.status).toBe(500); // the test route's own json() fails: the middleware did not answer
    const malformed = await post('{"name":');
    expect(malformed.status).toBe(500);
  });
});

describe('isWellFormed / findField', () => {
  it('tells paired from lone surrogates', () => {
    expect(isWellFormed('a😀b')).toBe(true);
    expect(isWellFormed('\ud800')).toBe(false);
    expect(isWellFormed('\udc00x')).toBe(false);
    expect(isWellFormed('x\ud83d')).toBe(false);
  });

  it('names the first bad string by its dotted path', () => {
    const bad = (s: string) => s === 'bad';
    expect(findField({ a: [{ b: 'ok' }, { c: 'bad' }] }, bad)).toBe('a.1.c');
    expect(findField('bad', bad)).toBe('body');
    expect(findField({ a: 1, b: null }, bad)).toBeUndefined();
  });
});
