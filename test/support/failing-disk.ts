import type { FileHandle } from 'node:fs/promises';
import { onTestFinished } from 'vitest';
import type { Logger } from '../../src/http/deps.js';
import { writeDurably } from '../../src/store/journal/files.js';
import { JournalPersistence } from '../../src/store/journal/journal-persistence.js';
import { tempDataFile } from '../../src/store/journal/test-helpers.js';
import { Store } from '../../src/store/store.js';
import type { WebhookSender } from '../../src/webhooks/sender.js';
import { createTestSandbox, type TestSandbox } from './sandbox.js';

/** An error as Node's fs reports a failed system call (`code` is what the journal looks at). */
export function systemError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: write failed (simulated)`), { code, errno: -1, syscall: 'write' });
}

/**
 * The disk under a journal, as a test fills and frees it: while `failing` holds an error code,
 * every journal write fails after half its line reached the file (a disk filling up mid-write).
 * `hold()` keeps the next write waiting until the test lets it pass or fail.
 */
export class FailingDisk {
  failing: string | null = null;
  private held: Promise<string | null> | undefined;

  readonly writeLine = async (handle: FileHandle, line: Buffer): Promise<void> => {
    const held = this.held;
    this.held = undefined;
    const code = held ? await held : this.failing;
    if (code) {
      await handle.write(line, 0, Math.floor(line.length / 2));
      throw systemError(code);
    }
    await writeDurably(handle, line);
  };

  /** The next write waits; resolve with an error code to fail it, null to let it through. */
  hold(): (code: string | null) => void {
    let release: (code: string | null) => void = () => {};
    this.held = new Promise((resolve) => {
      release = resolve;
    });
    return release;
  }
}

/** Turns of the event loop until `condition` holds (no timer: a few hundred turns at most). */
export async function until(condition: () => boolean, turns = 1000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`condition not met within ${turns} turns of the event loop`);
}

export interface FullDiskSandbox {
  sandbox: TestSandbox;
  disk: FailingDisk;
  journal: JournalPersistence;
  /** Every line logged, errors prefixed `error: ` (with the error's message, no stack). */
  logs: string[];
  /** The world a restart from the files would load, as its own store. */
  restarted(): Promise<Store>;
}

/**
 * A whole sandbox journaling to a fresh `--data` file on a FailingDisk. The probe timer is far
 * off: tests ask `journal.health.retry()` instead of waiting for it.
 */
export async function fullDiskSandbox(
  options: { webhookSender?: WebhookSender } = {},
): Promise<FullDiskSandbox> {
  const path = tempDataFile();
  const disk = new FailingDisk();
  const store = new Store(Buffer.alloc(32, 3).toString('base64url'));
  const { persistence: journal } = await JournalPersistence.open(path, store, {
    writeLine: disk.writeLine,
    retryMs: 3_600_000,
  });
  const logs: string[] = [];
  const log: Logger = {
    info: (message) => logs.push(message),
    error: (message, error) =>
      logs.push(`error: ${message}${error === undefined ? '' : ` ${(error as Error).message ?? error}`}`),
  };
  const sandbox = createTestSandbox({}, { store, persistence: journal, log, ...options });
  await journal.flush();
  onTestFinished(async () => {
    sandbox.deps.engine.stop();
    await sandbox.deps.webhooks.close();
    disk.failing = null;
    await journal.close().catch(() => {});
  });
  return {
    sandbox,
    disk,
    journal,
    logs,
    restarted: async () => {
      const restored = new Store('replaced-by-the-journal');
      const reopened = await JournalPersistence.open(path, restored);
      await reopened.persistence.close();
      return restored;
    },
  };
}
