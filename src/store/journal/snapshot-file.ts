import { type FileHandle, open, readFile, rename, unlink } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import type { Snapshot } from '../store.js';
import { isMissing, syncDirectoryOf, writeAll } from './files.js';

/**
 * A snapshot as the journal backend writes it: the wave-1 shape plus the number of the last
 * journal entry it already contains (a wave-1 file has none: every journal entry is newer).
 */
export interface JournalSnapshot extends Snapshot {
  journal?: { through: number };
}

const SYNC_EVERY_BYTES = 8 * 1024 * 1024;

/** Bytes of JSON gathered before each write; each write lets other work run in between. */
export const DEFAULT_CHUNK_BYTES = 256 * 1024;

/**
 * A lowdb adapter for the snapshot. Reads like lowdb's JSONFile (so a wave-1 data file loads as
 * it is). Writes without holding the event loop: rows are serialized a chunk at a time, each
 * chunk written before the next is built, into a temporary file that is synced and then renamed
 * over the snapshot, so a crash at any moment leaves either the old snapshot or the new one.
 */
export class SnapshotFile implements Adapter<JournalSnapshot> {
  /** Size in bytes of the snapshot last read or written (0 when there is none). */
  bytes = 0;

  constructor(
    private readonly path: string,
    private readonly tempPath: string,
    private readonly chunkBytes = DEFAULT_CHUNK_BYTES,
  ) {}

  async read(): Promise<JournalSnapshot | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    this.bytes = Buffer.byteLength(text);
    if (/^\s*$/.test(text)) return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new Error(
        `${this.path} is not a credit-sandbox data file (${(error as Error).message}); ` +
          'point --data at another file, or move this one away to start empty',
      );
    }
    if (value === null) return null;
    const snapshot = value as Partial<JournalSnapshot>;
    if (snapshot.version !== 1 || typeof snapshot.tables !== 'object' || typeof snapshot.meta !== 'object') {
      throw new Error(
        `${this.path} is not a credit-sandbox data file (expected {"version": 1, "meta", "tables"}); ` +
          'point --data at another file, or move this one away to start empty',
      );
    }
    return snapshot as JournalSnapshot;
  }

  async write(data: JournalSnapshot): Promise<void> {
    const handle = await open(this.tempPath, 'w');
    const out = new ChunkWriter(handle, this.chunkBytes);
    try {
      await out.text(
        `{"version":1,"meta":${JSON.stringify(data.meta)},"journal":${JSON.stringify(data.journal ?? { through: 0 })},"tables":{`,
      );
      let firstTable = true;
      for (const [name, rows] of Object.entries(data.tables)) {
        await out.text(`${firstTable ? '' : ','}\n${JSON.stringify(name)}:[`);
        firstTable = false;
        for (let i = 0; i < rows.length; i++)
          await out.text(`${i === 0 ? '' : ','}\n${JSON.stringify(rows[i])}`);
        await out.text(']');
      }
      await out.text('\n}}\n');
      await out.end();
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(this.tempPath).catch(() => {});
      throw error;
    }
    await handle.close();
    await rename(this.tempPath, this.path);
    await syncDirectoryOf(this.path);
    this.bytes = out.written;
  }

  /** Removes a temporary file left by a compaction a crash interrupted (it is never read). */
  async removeLeftover(): Promise<boolean> {
    try {
      await unlink(this.tempPath);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

/**
 * Gathers text into one reused buffer and writes it out when full. Reusing the buffer (instead of
 * concatenating a large string per chunk) keeps a compaction's garbage small and short-lived, so
 * it does not provoke the long garbage-collector pauses that would stall requests.
 */
class ChunkWriter {
  private readonly buffer: Buffer;
  private used = 0;
  private unsynced = 0;
  written = 0;

  constructor(
    private readonly handle: FileHandle,
    chunkBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
  }

  /** Returns a promise only when the buffer had to be written (callers await it: the yield point). */
  text(text: string): Promise<void> | undefined {
    // A UTF-8 byte takes at most 3 bytes per UTF-16 unit: reserve that, measure only when close.
    if (this.used + text.length * 3 <= this.buffer.length) {
      this.used += this.buffer.write(text, this.used);
      return undefined;
    }
    return this.spill(text);
  }

  async end(): Promise<void> {
    await this.drain();
  }

  private async spill(text: string): Promise<void> {
    await this.drain();
    if (text.length * 3 <= this.buffer.length) this.used = this.buffer.write(text, 0);
    else await this.put(Buffer.from(text, 'utf8'));
  }

  private async drain(): Promise<void> {
    if (this.used === 0) return;
    await this.put(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private async put(bytes: Buffer): Promise<void> {
    await writeAll(this.handle, bytes);
    this.written += bytes.length;
    this.unsynced += bytes.length;
    // Syncing as it goes keeps the dirty pages few: one big sync at the end would hold the disk
    // for a long time, and the journal's fdatasync (an acknowledged write) would wait behind it.
    if (this.unsynced >= SYNC_EVERY_BYTES) {
      this.unsynced = 0;
      await this.handle.datasync();
    }
  }
}
