import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { Snapshot, Store } from './store.js';

/** Makes the store durable. A response is sent only after `flush()` resolves. */
export interface Persistence {
  flush(): Promise<void>;
}

/** The default: nothing to write. */
export const memoryPersistence: Persistence = { flush: async () => {} };

/**
 * JSON-file persistence through lowdb. Writes are group-committed: callers that arrive while a
 * write is in progress share the next single write, which starts after the current one, so every
 * caller's change is on disk when its promise resolves and the file is written at most twice for
 * any burst of concurrent requests.
 */
export class FilePersistence implements Persistence {
  private readonly db: Low<Snapshot | null>;
  private writing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    path: string,
    private readonly store: Store,
  ) {
    this.db = new Low<Snapshot | null>(new JSONFile<Snapshot | null>(path), null);
  }

  /** Restores the store from the file, if it has content. Returns whether it did. */
  async load(): Promise<boolean> {
    await this.db.read();
    if (!this.db.data) return false;
    this.store.restore(this.db.data);
    return true;
  }

  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.writing) {
      this.writing = this.write().finally(() => {
        this.writing = null;
      });
      return this.writing;
    }
    // A failed write must not wedge the queue: the next caller still gets its own write.
    this.queued = this.writing.then(noop, noop).then(() => {
      this.queued = null;
      return this.flush();
    });
    return this.queued;
  }

  protected async write(): Promise<void> {
    this.db.data = this.store.snapshot();
    await this.db.write();
  }
}

function noop(): void {}
