import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../domain/errors.js';
import { gunzipCapped, MAX_DOCUMENT_BYTES, parseSnapshotUpload } from './snapshot-upload.js';

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('snapshot uploads', () => {
  it('inflates gzip as a stream that stops at the limit', async () => {
    // 64 MiB of zeros is 64 KB gzipped: refused after 1 MiB of output, never inflated whole.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.byteLength).toBeLessThan(100 * 1024);
    expect((await refusal(gunzipCapped(bomb, 1024 * 1024))).code).toBe('snapshot_limit_reached');
    expect((await gunzipCapped(gzipSync('{"a":1}'), 1024)).toString()).toBe('{"a":1}');
    expect((await refusal(gunzipCapped(bomb.subarray(0, 100), 64 * 1024 * 1024))).code).toBe(
      'snapshot_invalid',
    );
  });

  it('refuses more than 17 MiB once decompressed, deep nesting, bad UTF-8 and non-JSON', async () => {
    const big = gzipSync(Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x20));
    expect((await refusal(parseSnapshotUpload(big))).code).toBe('snapshot_limit_reached');
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    for (const body of [Buffer.from(deep), gzipSync(deep)]) {
      expect((await refusal(parseSnapshotUpload(body))).code).toBe('json_too_deep');
    }
    expect(await parseSnapshotUpload(Buffer.from(`${'['.repeat(64)}${']'.repeat(64)}`))).toBeInstanceOf(
      Array,
    );
    expect((await refusal(parseSnapshotUpload(Buffer.from([0x7b, 0xc3, 0x28])))).code).toBe(
      'snapshot_invalid',
    );
    expect((await refusal(parseSnapshotUpload(Buffer.from('{"a":')))).code).toBe('snapshot_invalid');
    expect((await refusal(parseSnapshotUpload(new Uint8Array()))).code).toBe('snapshot_invalid');
  });
});
