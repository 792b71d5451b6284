import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ccbNumber, pixEndToEndId, signingToken, signingUrl } from './contract-ids.js';

describe('contract identifiers', () => {
  it('builds pix end-to-end ids in the Central Bank format', () => {
    const id = pixEndToEndId(Date.parse('2026-03-02T12:34:56.000Z'), randomBytes);
    expect(id).toHaveLength(32);
    expect(id).toMatch(/^E\d{8}202603021234[A-Za-z0-9]{11}$/);
  });

  it('numbers the CCB by issue date and loan', () => {
    expect(ccbNumber('ln_0000000000000000000000000000abcd', Date.parse('2026-03-02T23:59:00Z'))).toBe(
      'CCB-20260302-000000ABCD',
    );
  });

  it('makes unguessable signing tokens and absolute signing URLs', () => {
    const token = signingToken(randomBytes);
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(signingToken(randomBytes)).not.toBe(token);
    expect(signingUrl('http://localhost:8080/', 'ln_1', 'tok')).toBe(
      'http://localhost:8080/hosted/contracts/ln_1/tok',
    );
  });
});
