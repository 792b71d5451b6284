import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEntryOf } from '../../src/app.js';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import { basicOf, call, cpfOf, type Session, session } from '../support/operation-data.js';
import { startQuietServer } from '../support/test-server.js';

// Answers are compressed when the client asks (Accept-Encoding) and they are large enough; the
// request inspector keeps them as the operation made them; the OpenAPI documents and Swagger UI's
// script are compressed once and kept. Raw sockets (undici's Pool does not decompress).

let server: RunningServer;
let pool: Pool;
let s: Session;

beforeAll(async () => {
  server = await startQuietServer();
  pool = new Pool(server.url, { connections: 2 });
  s = await session(`${server.url}/v3`, basicOf(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET));
  for (let i = 0; i < 10; i++) {
    await call(s, 'POST', '/customers', { cpf: cpfOf(5_550_000 + i * 101), name: `Compressed ${i}` });
  }
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

async function get(path: string, encoding?: string, auth = true) {
  const res = await pool.request({
    method: 'GET',
    path,
    headers: { ...(auth ? s.headers() : {}), ...(encoding ? { 'accept-encoding': encoding } : {}) },
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const contentEncoding = res.headers['content-encoding'] as string | undefined;
  const text =
    contentEncoding === 'gzip'
      ? gunzipSync(bytes).toString()
      : contentEncoding === 'br'
        ? brotliDecompressSync(bytes).toString()
        : bytes.toString();
  return { status: res.statusCode, headers: res.headers, bytes, text, contentEncoding };
}

describe('compression on the request path', () => {
  it('compresses a large answer when asked, keeps it plain otherwise, and logs it uncompressed', async () => {
    const plain = await get('/v3/customers?limit=25');
    const zipped = await get('/v3/customers?limit=25', 'gzip, deflate');
    const brotli = await get('/v3/customers?limit=25', 'gzip, deflate, br');
    expect(plain.contentEncoding).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(zipped.contentEncoding).toBe('gzip');
    expect(brotli.contentEncoding).toBe('br');
    for (const res of [zipped, brotli]) {
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.text).toBe(plain.text);
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
      expect(res.bytes.length).toBeLessThan(plain.bytes.length / 3);
    }
    // The log keeps the answer as the operation made it (a long one as its head and its size).
    const entry = await call<{ response_body: { truncated: boolean; original_bytes: number; text: string } }>(
      s,
      'GET',
      `/sandbox/requests/${zipped.headers['request-id']}`,
    );
    expect(entry.response_body).toMatchObject({ truncated: true, original_bytes: plain.bytes.length });
    expect(plain.text.startsWith(entry.response_body.text)).toBe(true);
  });

  it('leaves small answers and early refusals alone', async () => {
    const clock = await get('/v3/sandbox/clock', 'gzip');
    expect(clock.contentEncoding).toBeUndefined();
    const refused = await get('/v3/customers?limit=25', 'gzip', false);
    expect(refused.status).toBe(401);
    expect(refused.contentEncoding).toBeUndefined();
  });

  it('compresses the OpenAPI documents and Swagger UI once, in the background, and answers the kept form', async () => {
    const compression = nodeEntryOf(server.app).compression;
    for (const path of ['/v3/openapi.json', '/docs/openapi.json', '/docs/assets/swagger-ui-bundle.js']) {
      const first = await get(path, 'br, gzip', false);
      expect(first.status, path).toBe(200);
      expect(first.headers.vary).toBe('Accept-Encoding');
      await compression.settled();
      const kept = await get(path, 'br, gzip', false);
      const again = await get(path, 'br, gzip', false);
      expect(kept.contentEncoding, path).toBe('br');
      expect(kept.text).toBe(first.text);
      expect(again.bytes.equals(kept.bytes)).toBe(true);
      expect(kept.bytes.length).toBeLessThan(first.bytes.length / 3);
    }
    const swagger = JSON.parse((await get('/docs/openapi.json', undefined, false)).text) as {
      openapi: string;
    };
    expect(swagger.openapi).toBe('3.0.3');
    const document = JSON.parse((await get('/v3/openapi.json', undefined, false)).text) as {
      openapi: string;
    };
    expect(document.openapi).toBe('3.1.0');
  });
});
