import { describe, expect, it } from 'vitest';
import { describeStorageError, StorageHealth, StorageUnavailableError } from './storage-health.js';

function enospc(): Error {
  return Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' });
}

describe('StorageHealth', () => {
  it('tells its listeners once when writes stop and once when they work again, however many fail', async () => {
    let working = false;
    const health = new StorageHealth({
      probe: async () => {
        if (!working) throw enospc();
      },
      retryMs: 3_600_000,
      now: () => Date.parse('2026-11-27T10:00:00.000Z'),
    });
    const told: unknown[] = [];
    health.onChange((status) => told.push(status));
    const error = health.failed(enospc());
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error.code).toBe('storage_unavailable');
    expect(error.retryAfterSeconds).toBe(3600);
    health.failed(enospc());
    expect(health.refusal().message).toMatch(/the disk is full \(ENOSPC\)/);
    expect(await health.retry()).toBe(false);
    working = true;
    expect(await health.retry()).toBe(true);
    expect(told).toEqual([
      { writable: false, reason: 'the disk is full (ENOSPC)', since: '2026-11-27T10:00:00.000Z' },
      { writable: true },
    ]);
    health.stop();
  });

  it('is not writable again before every writer that began before a rollback has left', async () => {
    const health = new StorageHealth({ probe: async () => {}, retryMs: 3_600_000 });
    const before = health.enter();
    health.rolledBack();
    health.failed(enospc());
    expect(health.epoch).not.toBe(before); // that writer must not answer success
    expect(await health.retry()).toBe(false);
    health.leave(before);
    expect(await health.retry()).toBe(true);
    // A writer of the current epoch does not hold recovery back.
    const now = health.enter();
    health.failed(enospc());
    expect(await health.retry()).toBe(true);
    health.leave(now);
    health.stop();
  });

  it('never fails without a probe (memory), and answers retry-after at least 1 s', () => {
    const memory = new StorageHealth();
    memory.failed(enospc());
    expect(memory.writable).toBe(true);
    expect(new StorageHealth({ retryMs: 250 }).retryAfterSeconds).toBe(1);
  });

  it('describes errors for people', () => {
    expect(describeStorageError(Object.assign(new Error('x'), { code: 'EIO' }))).toBe(
      'the disk reported an I/O error (EIO)',
    );
    expect(describeStorageError(Object.assign(new Error('odd failure'), { code: 'EFOO' }))).toBe(
      'odd failure (EFOO)',
    );
    expect(describeStorageError(new Error('plain'))).toBe('plain');
  });
});
