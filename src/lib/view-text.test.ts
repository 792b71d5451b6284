import { describe, expect, it } from 'vitest';
import { TextsById, viewText } from './view-text.js';

describe('TextsById', () => {
  it('keeps texts by id and holds at most two generations of its budget', () => {
    const texts = new TextsById(100);
    for (let i = 0; i < 50; i++) texts.keep(`id${i}`, 'x'.repeat(30));
    expect(texts.heldBytes).toBeLessThanOrEqual(200);
    expect(texts.get('id49')).toBe('x'.repeat(30));
    expect(texts.get('id0')).toBeUndefined();
  });

  it('keeps the older generation readable until the next turn-over', () => {
    const texts = new TextsById(100);
    texts.keep('a', 'a'.repeat(60));
    texts.keep('b', 'b'.repeat(60));
    expect(texts.get('a')).toBe('a'.repeat(60));
    texts.keep('c', 'c'.repeat(60));
    expect(texts.get('a')).toBeUndefined();
    expect(texts.get('b')).toBe('b'.repeat(60));
  });

  it('does not keep a text larger than its budget', () => {
    const texts = new TextsById(10);
    texts.keep('big', 'y'.repeat(11));
    expect(texts.get('big')).toBeUndefined();
    expect(texts.heldBytes).toBe(0);
  });
});

describe('viewText', () => {
  it('serialises a row once per row object', () => {
    let calls = 0;
    const json = viewText((row: { n: number }) => {
      calls++;
      return { n: row.n };
    });
    const row = { n: 1 };
    expect(json(row)).toBe('{"n":1}');
    expect(json(row)).toBe('{"n":1}');
    expect(json({ n: 1 })).toBe('{"n":1}');
    expect(calls).toBe(2);
  });
});
