import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_DECODED_BYTES, parseBody } from './body-copy.js';

const captured = (bytes: Buffer) => ({ size: bytes.byteLength, bytes });
const JSON_TEXT = Buffer.from(JSON.stringify({ data: [{ id: 'ln_1', status: 'active' }] }));

describe('parseBody and Content-Encoding', () => {
  it('decodes a gzip or brotli body before parsing it by its media type', async () => {
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(JSON_TEXT)],
      ['br', brotliCompressSync(JSON_TEXT)],
      ['GZIP', gzipSync(JSON_TEXT)],
    ] as const) {
      expect(await parseBody(captured(bytes), 'application/json', encoding)).toEqual({
        kind: 'json',
        value: { data: [{ id: 'ln_1', status: 'active' }] },
      });
    }
    expect(await parseBody(captured(JSON_TEXT), 'application/json', 'identity')).toMatchObject({
      kind: 'json',
    });
  });

  it('says so for a body that is not what its encoding claims, or an encoding it does not know', async () => {
    expect(await parseBody(captured(JSON_TEXT), 'application/json', 'gzip')).toEqual({
      kind: 'invalid',
      reason: 'not valid gzip',
    });
    expect(await parseBody(captured(gzipSync(JSON_TEXT)), 'application/json', 'zz')).toEqual({
      kind: 'invalid',
      reason: 'an unknown Content-Encoding (zz)',
    });
  });

  it('does not decode past its bound (a small compressed body can decode to a lot)', async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_DECODED_BYTES + 1));
    expect(await parseBody(captured(bomb), 'application/json', 'gzip')).toEqual({
      kind: 'too-large',
      size: MAX_DECODED_BYTES,
    });
  });
});
