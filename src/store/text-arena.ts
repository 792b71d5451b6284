/**
 * The first chunk's size (small: every partner that sends a request gets an arena); each new chunk
 * doubles it up to MAX_CHUNK_BYTES.
 */
const MIN_CHUNK_BYTES = 1024;
const MAX_CHUNK_BYTES = 65536;
/** Released full-size chunks kept for reuse. */
const MAX_SPARE_CHUNKS = 2;

/** Node's own UTF-8 writer behind `Buffer#write`, present on every Buffer (not in its types). */
type Utf8Writer = (this: Buffer, text: string, offset: number) => number;
const nodeUtf8Write = (Buffer.prototype as unknown as { utf8Write?: Utf8Writer }).utf8Write;

/**
 * `buffer.write(text, offset, 'utf8')` without the argument checks and the encoding look-up of
 * `Buffer#write`, which cost more than the copy itself for texts as short as a request's path:
 * this runs on every logged request. Falls back to `Buffer#write` where Node lacks the method.
 */
const writeUtf8: (buffer: Buffer, text: string, offset: number) => number = nodeUtf8Write
  ? (buffer, text, offset) => nodeUtf8Write.call(buffer, text, offset)
  : (buffer, text, offset) => buffer.write(text, offset, 'utf8');

/**
 * Texts kept as UTF-8 bytes in chunks outside the JavaScript heap, written in order and released
 * oldest chunk first. Why: the request log holds each answer's text for a thousand requests, long
 * enough to be promoted out of the young generation; as strings, those texts were most of what
 * the garbage collector had to copy and mark, and made the log the costliest part of a request.
 * As bytes in a buffer they cost the collector nothing and take one copy to write.
 *
 * Released full-size chunks are reused rather than left to the collector: a chunk is external
 * memory, and V8 answers a steady stream of new external memory with full collections.
 *
 * A writer reserves room for a record (`reserve`, in UTF-16 code units: at most three bytes each),
 * reads where it starts (`chunkNumber`, counted from the first chunk ever made, and `offset`),
 * then writes its texts back to back (`put`, which answers the bytes written). A text is read back
 * by chunk number, offset and byte length. Nothing is allocated per text.
 */
export class TextArena {
  /** Where the next `put` writes. */
  chunkNumber = 0;
  offset = 0;

  private readonly chunks: Buffer[] = [];
  /** Chunk number of `chunks[0]`. */
  private firstChunk = 0;
  private nextSize = MIN_CHUNK_BYTES;
  private readonly spare: Buffer[] = [];

  /** Makes sure `put`s of texts `units` UTF-16 code units long in all land in one chunk. */
  reserve(units: number): void {
    // No byte count up front (it costs a pass over each text): the most UTF-8 can take.
    const bytes = units * 3;
    const chunk = this.chunks[this.chunks.length - 1];
    if (chunk && chunk.length - this.offset >= bytes) return;
    this.chunks.push(this.newChunk(bytes));
    this.chunkNumber = this.firstChunk + this.chunks.length - 1;
    this.offset = 0;
  }

  /** Writes a text into the reserved room as UTF-8; answers how many bytes it took. */
  put(text: string): number {
    const chunk = this.chunks[this.chunks.length - 1] as Buffer;
    const bytes = writeUtf8(chunk, text, this.offset);
    this.offset += bytes;
    return bytes;
  }

  read(chunkNumber: number, offset: number, bytes: number): string {
    const chunk = this.chunks[chunkNumber - this.firstChunk];
    if (!chunk) throw new Error(`text chunk ${chunkNumber} was released`);
    return chunk.toString('utf8', offset, offset + bytes);
  }

  /** Lets go of every chunk before `chunkNumber` (the oldest text still held is in it). */
  releaseBefore(chunkNumber: number): void {
    while (this.firstChunk < chunkNumber && this.chunks.length > 1) {
      const chunk = this.chunks.shift() as Buffer;
      this.firstChunk++;
      if (chunk.length === MAX_CHUNK_BYTES && this.spare.length < MAX_SPARE_CHUNKS) this.spare.push(chunk);
    }
  }

  /** Nothing is held any more: everything but the newest chunk goes, and it is written from its start. */
  releaseAll(): void {
    this.releaseBefore(this.chunkNumber);
    this.offset = 0;
  }

  /** Bytes held in chunks (for tests and reports). */
  get bytesHeld(): number {
    let total = 0;
    for (const chunk of this.chunks) total += chunk.length;
    return total;
  }

  private newChunk(bytes: number): Buffer {
    const reused = bytes <= MAX_CHUNK_BYTES ? this.spare.pop() : undefined;
    if (reused) return reused;
    const size = Math.max(this.nextSize, bytes);
    this.nextSize = Math.min(this.nextSize * 2, MAX_CHUNK_BYTES);
    // Not from Node's shared pool: a chunk is released as a whole, and must not pin a pool slab.
    return Buffer.allocUnsafeSlow(size);
  }
}
