import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Answer, answerHeader } from './answer.js';
import { COMPRESS_MIN_BYTES, Compression, KEPT_MIN_BYTES } from './compression.js';

const json = (bytes: number) => JSON.stringify({ data: 'x'.repeat(bytes) });
const answer = (body: string | Uint8Array, type = 'application/json', extra: string[] = []) =>
  new Answer(200, ['content-type', type, ...extra], body);
const text = (a: Answer) => {
  const encoding = answerHeader(a.headers, 'content-encoding');
  const body = a.body as Uint8Array;
  if (encoding === 'gzip') return gunzipSync(body).toString();
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  return a.body as string;
};

describe('Compression', () => {
  it('leaves small answers, other types, streams and encoded answers alone', () => {
    const c = new Compression();
    const small = answer(json(COMPRESS_MIN_BYTES / 2));
    expect(c.apply(small, 'gzip, br')).toBe(small);
    const events = answer(json(10_000), 'text/event-stream');
    expect(c.apply(events, 'gzip')).toBe(events);
    const image = answer(new Uint8Array(10_000), 'image/png');
    expect(c.apply(image, 'gzip')).toBe(image);
    const encoded = answer(json(10_000), 'application/json', ['Content-Encoding', 'gzip']);
    expect(c.apply(encoded, 'gzip')).toBe(encoded);
    const stream = new Answer(200, ['content-type', 'application/json'], new ReadableStream());
    expect(c.apply(stream, 'gzip')).toBe(stream);
  });

  it('compresses with brotli when accepted, else gzip, honouring q-values, and always says Vary', () => {
    const c = new Compression();
    const body = json(10_000);
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.9', 'br'],
      ['*', 'br'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const out = c.apply(answer(body), accept);
      expect(answerHeader(out.headers, 'content-encoding'), String(accept)).toBe(expected);
      expect(answerHeader(out.headers, 'vary')).toBe('Accept-Encoding');
      expect(text(out)).toBe(body);
    }
    // A Vary the answer already has is not said twice.
    const varied = c.apply(answer(body, 'application/json', ['Vary', 'Accept-Encoding']), 'gzip');
    expect(varied.headers.filter((h) => h.toLowerCase() === 'vary')).toHaveLength(1);
  });

  it('compresses a large body once, in the background, and answers the kept form after', async () => {
    const c = new Compression();
    const body = json(KEPT_MIN_BYTES * 2);
    const first = c.apply(answer(body), 'gzip, br');
    // Not ready yet: this answer goes out as it is, with Vary.
    expect(answerHeader(first.headers, 'content-encoding')).toBeUndefined();
    expect(answerHeader(first.headers, 'vary')).toBe('Accept-Encoding');
    await c.settled();
    const second = c.apply(answer(body), 'gzip, br');
    const third = c.apply(answer(body), 'gzip, br');
    expect(answerHeader(second.headers, 'content-encoding')).toBe('br');
    expect(third.body).toBe(second.body);
    expect(text(second)).toBe(body);
    expect((second.body as Uint8Array).byteLength).toBeLessThan(body.length / 10);
  });
});
