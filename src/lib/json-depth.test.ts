import { describe, expect, it } from 'vitest';
import { compactJsonBytes, jsonDepth } from './json-depth.js';

describe('jsonDepth', () => {
  it('counts nesting of arrays and objects', () => {
    expect(jsonDepth('1', 10)).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}', 10)).toBe(4);
    expect(jsonDepth('[[],[[]],[]]', 10)).toBe(3);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[[{{{{"}', 2)).toBe(1);
    expect(jsonDepth('["x\\"[[[[", "\\\\", [1]]', 5)).toBe(2);
  });

  it('stops past the limit, without recursion, for 100,000 levels', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(jsonDepth(deep, 64)).toBe(65);
    expect(jsonDepth(deep, 200_000)).toBe(100_000);
  });

  it('costs one indexOf for a long string', () => {
    expect(jsonDepth(`{"name":"${'a'.repeat(15 * 1024 * 1024)}"}`, 64)).toBe(1);
  });
});

describe('compactJsonBytes', () => {
  it('is the size JSON.stringify writes, blanks between tokens left out', () => {
    for (const value of [
      { a: [1, 2, { b: 'x y "z" \\ é' }], c: null },
      [],
      'text with  blanks',
      { 'k e y': ' ' },
    ]) {
      const pretty = JSON.stringify(value, null, 2);
      expect(compactJsonBytes(pretty)).toBe(Buffer.byteLength(JSON.stringify(value)));
    }
  });
});
