import { type FileHandle, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The files of one `--data FILE` store, all beside FILE. */
export interface JournalPaths {
  /** The snapshot (a lowdb JSON file; a wave-1 data file is a snapshot with no journal). */
  snapshot: string;
  /** Written while a compaction runs, renamed over the snapshot when complete. */
  snapshotTemp: string;
  /** The active journal segment: every flush appends one line. */
  journal: string;
  /** The segment a running compaction is folding into the snapshot; gone when it completes. */
  compacting: string;
  /** Bytes dropped at recovery (a torn or damaged tail), kept for inspection, never read back. */
  dropped: string;
}

export function journalPaths(file: string): JournalPaths {
  return {
    snapshot: file,
    snapshotTemp: `${file}.tmp`,
    journal: `${file}.journal`,
    compacting: `${file}.journal.compacting`,
    dropped: `${file}.journal.dropped`,
  };
}

/** The file's bytes, or null when it does not exist. */
export async function readIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export async function sizeIfExists(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/**
 * Makes a create, rename or unlink in the file's directory durable: without it a crash can
 * forget the directory entry even though the file's bytes were synced.
 */
export async function syncDirectoryOf(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dirname(path), 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open a directory; the rename itself is still atomic there.
    if (
      (error as NodeJS.ErrnoException).code !== 'EISDIR' &&
      (error as NodeJS.ErrnoException).code !== 'EPERM'
    )
      throw error;
  } finally {
    await handle?.close();
  }
}

/** Writes every byte (a write to a regular file may in principle be partial). */
export async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done);
    done += bytesWritten;
  }
}

/** Writes a journal line and makes it durable (its bytes, then fdatasync). */
export async function writeDurably(handle: FileHandle, line: Buffer): Promise<void> {
  await writeAll(handle, line);
  await handle.datasync();
}
