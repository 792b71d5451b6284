import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';
import {
  findField,
  isWellFormed,
  MAX_JSON_DEPTH,
  wellFormedText,
  wellFormedUrl,
} from './well-formed-text.js';

function app() {
  const a = new Hono<AppEnv>();
  a.use('*', wellFormedUrl());
  a.use('*', wellFormedText());
  a.post('/', async (c) => c.json({ echoed: await c.req.json() }));
  a.post('/form', async (c) => c.json({ echoed: await c.req.parseBody() }));
  a.get('/*', (c) => c.json({ ok: true }));
  a.onError((error, c) =>
    error instanceof ApiError
      ? c.json({ code: error.code, param: error.param, detail: error.message }, error.status as 400)
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
    // Named escaped: the answer never echoes an unpaired surrogate.
    expect(await key.json()).toMatchObject({ param: '\\ud800' });
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

describe('charset, byte-order mark, NUL and depth', () => {
  it('refuses a charset other than UTF-8, and accepts utf-8 in any spelling', async () => {
    for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1', '"latin1"']) {
      const res = await post('{}', `application/json; charset=${charset}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'unsupported_charset', param: 'content-type' });
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8']) {
      expect((await post('{"a":1}', `application/json; charset=${charset}`)).status).toBe(200);
    }
    const form = await app().request('/form', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' },
      body: 'a=1',
    });
    expect(await form.json()).toMatchObject({ code: 'unsupported_charset' });
  });

  it('refuses a UTF-8 byte-order mark before the JSON', async () => {
    const res = await post(bytes([0xef, 0xbb, 0xbf], '{"a":1}'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      param: 'body',
      detail: expect.stringContaining('byte-order mark'),
    });
  });

  it('refuses NUL in a string or a key naming the field, and not an escaped backslash', async () => {
    // JSON `"x\\\\u0000"` is a backslash followed by the text u0000: no NUL.
    const literal = await post('{"a":{"b":["x\\\\u0000"]}}');
    expect(await literal.json()).toMatchObject({ echoed: { a: { b: ['x\\u0000'] } } });
    const value = await post('{"a":{"b":["ok","x\\u0000"]}}');
    expect(await value.json()).toMatchObject({ param: 'a.b.1', detail: expect.stringContaining('NUL') });
    const key = await post('{"a\\u0000":1}');
    expect(await key.json()).toMatchObject({ param: 'a\\u0000' });
    const form = await app().request('/form', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=x%00',
    });
    expect(await form.json()).toMatchObject({ param: 'grant_type' });
  });

  it('refuses NUL in the path (404: no id holds one) or the query (400)', async () => {
    const path = await app().request('/v3/customers/%00');
    expect(path.status).toBe(404);
    expect(await path.json()).toMatchObject({ code: 'resource_not_found', param: 'path' });
    expect(await (await app().request('/x?limit=1&status=a%00')).json()).toMatchObject({ param: 'status' });
    expect((await app().request('/x?status=a')).status).toBe(200);
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} before parsing, at 10k and 100k levels`, async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 10_000, 100_000]) {
      const res = await post(`${'['.repeat(depth)}${']'.repeat(depth)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'json_too_deep' });
    }
    const deepest = `${'{"a":'.repeat(MAX_JSON_DEPTH - 1)}[]${'}'.repeat(MAX_JSON_DEPTH - 1)}`;
    expect((await post(deepest)).status).toBe(200);
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
