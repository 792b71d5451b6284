import { describe, expect, it } from 'vitest';
import { storableJson, storableText } from './safe-text.js';

describe('storableJson', () => {
  it('leaves texts without escapes untouched (same string)', () => {
    const text = JSON.stringify({ name: 'Conceição 😀', path: '/v3/customers' });
    expect(storableJson(text)).toBe(text);
  });

  it('stores NUL as U+2400 and a lone surrogate as U+FFFD, in keys and values', () => {
    const text = JSON.stringify({ 'a\u0000': 'x\u0000y', lone: 'z\ud800', pair: '😀' });
    expect(JSON.parse(storableJson(text))).toEqual({ 'a\u2400': 'x\u2400y', lone: 'z\ufffd', pair: '😀' });
  });

  it('leaves an escaped backslash followed by "u0000" as the text it is', () => {
    const value = { literal: '\\u0000 and \\\\u0000', real: '\\\u0000' };
    const stored = JSON.parse(storableJson(JSON.stringify(value)));
    expect(stored).toEqual({ literal: '\\u0000 and \\\\u0000', real: '\\\u2400' });
  });

  it('makes plain text parameters NUL-free', () => {
    expect(storableText('id\u0000')).toBe('id\u2400');
    expect(storableText('id')).toBe('id');
  });
});
