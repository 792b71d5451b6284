import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What one request costs on the request path, counted, not timed (a loaded machine cannot move
// these): promises made and bytes allocated per request, on a representative read and write
// through Node's entry (test/support/request-path-counts.ts, in a process of its own with a young
// generation large enough that no collection runs while it counts). The bounds leave a few
// promises and ~30 % of bytes for Node versions and harmless change; a promise per middleware
// layer, a Response or Headers object per request, or a view serialised per read would not fit.

/** `GET /v3/customers/{id}`: no promise at all (measured 0). */
const READ_PROMISES = 0;
/**
 * `POST /v3/customers` in memory: the body read and the operation (measured 13; 21 while a write
 * without an Idempotency-Key still passed the idempotency step and waited on a flush with nothing
 * to write).
 */
const WRITE_PROMISES = 15;
/** Bytes allocated per read, the request log's entry included (measured ~10.5 KB on Node 20). */
const READ_BYTES = 14 * 1024;
/**
 * Bytes allocated per write (measured 26.1–26.3 KB on Node 20 and 30.2–30.6 KB on Node 24: the
 * customer's rows, event, indexes; 29.5 and 34.4 KB while a sorted list built a comparison
 * closure for every row it appended, 33–35 KB on Node 20 before ids stopped being built a
 * character at a time).
 */
const WRITE_BYTES = 34 * 1024;

describe('per-request work on the request path', () => {
  it(`makes ${READ_PROMISES} promises per read and at most ${WRITE_PROMISES} per write; allocates at most ${READ_BYTES} / ${WRITE_BYTES} bytes`, () => {
    const script = fileURLToPath(new URL('../support/request-path-counts.ts', import.meta.url));
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--max-semi-space-size=128', '--min-semi-space-size=128', script],
      { encoding: 'utf8', timeout: 120_000 },
    );
    const counts = JSON.parse(out.trim().split('\n').at(-1) as string) as {
      read: { promises: number; bytes: number };
      write: { promises: number; bytes: number };
    };
    expect(counts.read.promises).toBe(READ_PROMISES);
    expect(counts.write.promises).toBeLessThanOrEqual(WRITE_PROMISES);
    // NaN would mean every round saw a collection: the count could not be made.
    expect(counts.read.bytes).toBeGreaterThan(0);
    expect(counts.read.bytes).toBeLessThanOrEqual(READ_BYTES);
    expect(counts.write.bytes).toBeGreaterThan(0);
    expect(counts.write.bytes).toBeLessThanOrEqual(WRITE_BYTES);
  }, 150_000);
});
