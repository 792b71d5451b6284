import { open, rename, unlink } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import type { Snapshot } from '../store.js';
import { isMissing, readIfExists, syncDirectoryOf, writeAll } from './files.js';

/**
 * A snapshot as the journal backend writes it: the wave-1 shape plus the number of the last
 * journal entry it already contains (a wave-1 file has none: every journal entry is newer).
 */
export interface JournalSnapshot extends Snapshot {
  journal?: { through: number };
}

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
    const bytes = await readIfExists(this.path);
    this.bytes = bytes?.length ?? 0;
    if (!bytes || bytes.toString('utf8').trim() === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
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
    let written = 0;
    try {
      let chunk = `{"version":1,"meta":${JSON.stringify(data.meta)},"journal":${JSON.stringify(data.journal ?? { through: 0 })},"tables":{`;
      let firstTable = true;
      for (const [name, rows] of Object.entries(data.tables)) {
        chunk += `${firstTable ? '' : ','}\n${JSON.stringify(name)}:[`;
        firstTable = false;
        for (let i = 0; i < rows.length; i++) {
          chunk += `${i === 0 ? '' : ','}\n${JSON.stringify(rows[i])}`;
          if (chunk.length >= this.chunkBytes) {
            written += await writeChunk(handle, chunk);
            chunk = '';
          }
        }
        chunk += ']';
      }
      written += await writeChunk(handle, `${chunk}\n}}\n`);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(this.tempPath).catch(() => {});
      throw error;
    }
    await handle.close();
    await rename(this.tempPath, this.path);
    await syncDirectoryOf(this.path);
    this.bytes = written;
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

async function writeChunk(handle: Parameters<typeof writeAll>[0], text: string): Promise<number> {
  const bytes = Buffer.from(text, 'utf8');
  await writeAll(handle, bytes);
  return bytes.length;
}
