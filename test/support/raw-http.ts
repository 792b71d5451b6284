import type { Socket } from 'node:net';

/** One HTTP/1.1 message read off a socket, byte for byte: its head as sent, its body decoded. */
export interface RawMessage {
  /** The start line and header lines, exactly as they came (without the blank line). */
  head: string;
  /** Header lines, in order and case. */
  headerLines: string[];
  /** The body's bytes (chunked bodies de-chunked). */
  body: Buffer;
  chunked: boolean;
  /** The chunk sizes as framed, for a chunked body. */
  chunks: number[];
}

/**
 * Reads HTTP/1.1 messages from a socket without any HTTP library in between, so a test sees exactly
 * the bytes a peer wrote. Keep-alive: read one message after another on the same socket.
 */
export class RawReader {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  private ended = false;

  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.waiting?.();
    });
  }

  private async more(): Promise<void> {
    if (this.ended) throw new Error('the connection closed in the middle of a message');
    await new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
    this.waiting = undefined;
  }

  private async line(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n');
      if (end >= 0) {
        const text = this.buffer.subarray(0, end).toString('latin1');
        this.buffer = this.buffer.subarray(end + 2);
        return text;
      }
      await this.more();
    }
  }

  private async bytes(n: number): Promise<Buffer> {
    while (this.buffer.length < n) await this.more();
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return Buffer.from(out);
  }

  /** The next message; `bodyless` for the answer to a HEAD or a 204/304. */
  async message(bodyless = false): Promise<RawMessage> {
    const start = await this.line();
    const headerLines: string[] = [];
    for (let line = await this.line(); line !== ''; line = await this.line()) headerLines.push(line);
    const header = (name: string) =>
      headerLines
        .find((line) => line.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const head = [start, ...headerLines].join('\r\n');
    if (bodyless) return { head, headerLines, body: Buffer.alloc(0), chunked: false, chunks: [] };
    if (header('transfer-encoding')?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      const chunks: number[] = [];
      for (;;) {
        const size = Number.parseInt((await this.line()).split(';')[0]!, 16);
        chunks.push(size);
        if (size === 0) {
          while ((await this.line()) !== '') {}
          break;
        }
        parts.push(await this.bytes(size));
        await this.line();
      }
      return { head, headerLines, body: Buffer.concat(parts), chunked: true, chunks };
    }
    const length = Number(header('content-length') ?? 0);
    return { head, headerLines, body: await this.bytes(length), chunked: false, chunks: [] };
  }
}

/** A chunked body's framing: each chunk as `size\r\nbytes\r\n`, then the last chunk. */
export function chunkedBody(parts: readonly Buffer[]): Buffer {
  return Buffer.concat([
    ...parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]),
    Buffer.from('0\r\n\r\n'),
  ]);
}
