import {
  createWriteStream,
  existsSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  type WriteStream,
} from 'node:fs';
import type { RecordingLine } from './recording-format.js';

export interface RecorderOptions {
  file: string;
  /** A file is rotated before a line would take it past this many bytes (default 64 MiB). */
  maxBytes?: number;
  /** Files kept in all, the current one included: `file`, `file.1` … `file.{n-1}` (default 5). */
  files?: number;
  /** Lines waiting for the disk past this many bytes are dropped and counted (default 8 MiB). */
  maxPendingBytes?: number;
}

export const DEFAULT_RECORD_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_RECORD_FILES = 5;
const DEFAULT_MAX_PENDING = 8 * 1024 * 1024;

/**
 * Appends recording lines to a file, bounded: when the next line would take the file past
 * `maxBytes` it is renamed `file.1` (`file.1` → `file.2` …, the oldest beyond `files` deleted) and a
 * new file begins; the recording on disk never exceeds `files × maxBytes` (a single line larger than
 * `maxBytes` gets a file of its own). Writes are asynchronous; if the disk falls behind by more than
 * `maxPendingBytes`, lines are dropped and counted rather than held in memory.
 */
export class Recorder {
  private stream: WriteStream;
  private bytes: number;
  private readonly maxBytes: number;
  private readonly files: number;
  private readonly maxPending: number;
  /** Lines written, and lines dropped because the disk fell behind. */
  written = 0;
  dropped = 0;
  rotations = 0;
  private closing: Promise<void> | undefined;
  private batch: string[] = [];
  private batchBytes = 0;
  private scheduled = false;

  constructor(private readonly options: RecorderOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_RECORD_MAX_BYTES;
    this.files = options.files ?? DEFAULT_RECORD_FILES;
    this.maxPending = options.maxPendingBytes ?? DEFAULT_MAX_PENDING;
    if (!Number.isSafeInteger(this.maxBytes) || this.maxBytes < 1)
      throw new RangeError('maxBytes must be a positive integer');
    if (!Number.isSafeInteger(this.files) || this.files < 1) throw new RangeError('files must be at least 1');
    this.bytes = existsSync(options.file) ? statSync(options.file).size : 0;
    this.stream = this.open();
  }

  write(line: RecordingLine): void {
    if (this.closing) return;
    const text = `${JSON.stringify(line)}\n`;
    const size = Buffer.byteLength(text);
    if (this.stream.writableLength + this.batchBytes + size > this.maxPending) {
      this.dropped++;
      return;
    }
    if (this.bytes > 0 && this.bytes + size > this.maxBytes) {
      this.flush();
      this.rotate();
    }
    // Lines of one turn of the event loop go to the disk in one write, not one each.
    this.batch.push(text);
    this.batchBytes += size;
    this.bytes += size;
    this.written++;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.scheduled = false;
    if (this.batch.length === 0) return;
    this.stream.write(this.batch.length === 1 ? this.batch[0]! : this.batch.join(''));
    this.batch = [];
    this.batchBytes = 0;
  }

  /** Flushes what is pending and closes the file. */
  close(): Promise<void> {
    this.flush();
    this.closing ??= new Promise<void>((resolve) => this.stream.end(resolve));
    return this.closing;
  }

  private open(): WriteStream {
    // Opened now, not when the stream gets to it: a rotation renames the file this descriptor holds.
    const stream = createWriteStream('', { fd: openSync(this.options.file, 'a') });
    // A disk error must not end the proxy: the exchange goes on, the line is lost and counted.
    stream.on('error', () => {
      this.dropped++;
    });
    return stream;
  }

  private rotate(): void {
    // The old stream finishes writing into the renamed file (the descriptor follows the inode).
    this.stream.end();
    const { file } = this.options;
    const name = (n: number) => (n === 0 ? file : `${file}.${n}`);
    if (this.files === 1) rmSync(file, { force: true });
    else {
      rmSync(name(this.files - 1), { force: true });
      for (let n = this.files - 2; n >= 0; n--) if (existsSync(name(n))) renameSync(name(n), name(n + 1));
    }
    this.stream = this.open();
    this.bytes = 0;
    this.rotations++;
  }
}
