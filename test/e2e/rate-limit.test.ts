import { describe, expect, it } from 'vitest';
import { sharedRateLimiter } from '../../src/http/rate-limiter.js';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';

describe('rate limit', () => {
  it('sends RateLimit-* headers on every authenticated response and 429 + Retry-After past the limit', async () => {
    const sandbox = createTestSandbox({ rateLimit: 5 });
    const token = await sandbox.token(); // the token request itself counts: 4 left
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await sandbox.request('GET', '/v3/sandbox/clock', { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('RateLimit-Limit')).toBe('5');
      remaining.push(res.headers.get('RateLimit-Remaining') ?? '');
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    const limited = await sandbox.request('GET', '/v3/sandbox/clock', { token });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    expect(limited.headers.get('Retry-After')).toBe('1');
    expect(limited.headers.get('RateLimit-Remaining')).toBe('0');
    expect(await limited.json()).toMatchObject({ status: 429, code: 'rate_limited' });

    // Real time refills the bucket (the partner clock does not).
    sandbox.realTime.tick(1000);
    const after = await sandbox.request('GET', '/v3/sandbox/clock', { token });
    expect(after.status).toBe(200);
    expect(after.headers.get('RateLimit-Remaining')).toBe('4');
  });

  it('keeps one bucket per partner', async () => {
    const sandbox = createTestSandbox({ rateLimit: 3 });
    const token = await sandbox.token();
    await sandbox.request('GET', '/v3/sandbox/clock', { token });
    await sandbox.request('GET', '/v3/sandbox/clock', { token });
    expect((await sandbox.request('GET', '/v3/sandbox/clock', { token })).status).toBe(429);
    sandbox.realTime.tick(1000);
    const other = await newPartnerToken(sandbox);
    const res = await sandbox.request('GET', '/v3/sandbox/clock', { token: other.token });
    expect(res.status).toBe(200);
  });

  it('forgets the bucket of a partner that left memory (one bucket per partner in memory)', async () => {
    const sandbox = createTestSandbox({ rateLimit: 3 });
    const other = await newPartnerToken(sandbox);
    for (let i = 0; i < 3; i++) await sandbox.request('GET', '/v3/sandbox/clock', { token: other.token });
    expect((await sandbox.request('GET', '/v3/sandbox/clock', { token: other.token })).status).toBe(429);
    const limiter = sharedRateLimiter(sandbox.deps, 3, sandbox.deps.realNow);
    sandbox.deps.store.evictPartner(other.id);
    // Same instant: a bucket still kept would refuse; a forgotten one starts full.
    expect(limiter.take(other.id)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('sends no rate-limit headers when turned off (--rate-limit 0)', async () => {
    const sandbox = createTestSandbox({ rateLimit: 0 });
    const res = await sandbox.request('GET', '/v3/sandbox/clock');
    expect(res.headers.get('RateLimit-Limit')).toBeNull();
  });
});
