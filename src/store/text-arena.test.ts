import { describe, expect, it } from 'vitest';
import { TextArena } from './text-arena.js';

/** Writes one text as its own record and answers where to read it back. */
function write(arena: TextArena, text: string): { chunk: number; offset: number; bytes: number } {
  arena.reserve(text.length);
  const chunk = arena.chunkNumber;
  const offset = arena.offset;
  return { chunk, offset, bytes: arena.put(text) };
}

describe('TextArena', () => {
  it('reads back ASCII, accented, emoji and empty texts exactly', () => {
    const arena = new TextArena();
    const texts = ['{"id":"req_1"}', 'João da Silva, São Paulo', 'café ☕ 🚀 naïve', '', 'x'.repeat(5000)];
    const places = texts.map((text) => write(arena, text));
    for (const [i, text] of texts.entries()) {
      const { chunk, offset, bytes } = places[i] as { chunk: number; offset: number; bytes: number };
      expect(bytes).toBe(Buffer.byteLength(text));
      expect(arena.read(chunk, offset, bytes)).toBe(text);
    }
  });

  it('writes a record of several texts back to back in one chunk', () => {
    const arena = new TextArena();
    // The first chunk takes the 3,900 bytes reserved for 1,300 code units: 2,600 stay free.
    const before = write(arena, 'y'.repeat(1300));
    const answer = 'é'.repeat(990);
    // Room is reserved for the worst case (3 bytes per code unit): 3,000 bytes do not fit.
    arena.reserve('req_a'.length + '/v3/x'.length + answer.length);
    const start = { chunk: arena.chunkNumber, offset: arena.offset };
    const first = arena.put('req_a');
    const second = arena.put('/v3/x');
    const third = arena.put(answer);
    expect(start).toEqual({ chunk: before.chunk + 1, offset: 0 });
    expect(arena.read(start.chunk, start.offset, first)).toBe('req_a');
    expect(arena.read(start.chunk, start.offset + first, second)).toBe('/v3/x');
    expect(arena.read(start.chunk, start.offset + first + second, third)).toBe(answer);
    expect(arena.read(before.chunk, before.offset, before.bytes)).toBe('y'.repeat(1300));
  });

  it('releases chunks oldest first, and a released chunk can no longer be read', () => {
    const arena = new TextArena();
    const places = Array.from({ length: 40 }, (_, i) => write(arena, `${i}:${'z'.repeat(3000)}`));
    const last = places[places.length - 1] as { chunk: number; offset: number; bytes: number };
    expect(last.chunk).toBeGreaterThan(2);
    const heldBefore = arena.bytesHeld;
    arena.releaseBefore(last.chunk);
    expect(arena.bytesHeld).toBeLessThan(heldBefore);
    expect(arena.read(last.chunk, last.offset, last.bytes)).toBe(`39:${'z'.repeat(3000)}`);
    const first = places[0] as { chunk: number; offset: number; bytes: number };
    expect(() => arena.read(first.chunk, first.offset, first.bytes)).toThrow(/released/);
  });

  it('keeps its memory bounded when written and released forever (chunks are reused)', () => {
    const arena = new TextArena();
    const live: { chunk: number }[] = [];
    for (let i = 0; i < 20_000; i++) {
      live.push(write(arena, `{"n":${i},"pad":"${'p'.repeat(900)}"}`));
      if (live.length > 100) {
        live.shift();
        arena.releaseBefore((live[0] as { chunk: number }).chunk);
      }
    }
    // 100 live texts of ~1 KB: a few 64 KB chunks, not the 20 MB written.
    expect(arena.bytesHeld).toBeLessThanOrEqual(4 * 65536);
  });

  it('starts its newest chunk over once nothing is held', () => {
    const arena = new TextArena();
    write(arena, 'a'.repeat(100));
    arena.releaseAll();
    const again = write(arena, 'b');
    expect(again.offset).toBe(0);
    expect(arena.read(again.chunk, again.offset, again.bytes)).toBe('b');
  });
});
