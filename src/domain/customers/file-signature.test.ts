import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniffDocumentType } from './file-signature.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url)));
const bytes = (...values: number[]) => new Uint8Array(values);

describe('sniffDocumentType', () => {
  it('recognises the sample fixtures', () => {
    expect(sniffDocumentType(fixture('sample.pdf'))).toBe('application/pdf');
    expect(sniffDocumentType(fixture('sample.jpg'))).toBe('image/jpeg');
    expect(sniffDocumentType(fixture('sample.png'))).toBe('image/png');
  });

  it.each([
    ['empty', bytes()],
    ['a truncated PNG signature', bytes(0x89, 0x50, 0x4e, 0x47)],
    ['a truncated JPEG signature', bytes(0xff, 0xd8)],
    ['"%PDF" without the dash', new TextEncoder().encode('%PDF1.4')],
    ['a PDF signature not at the start', new TextEncoder().encode(' %PDF-1.4')],
    ['GIF', new TextEncoder().encode('GIF89a')],
    ['text', new TextEncoder().encode('hello')],
  ])('refuses %s', (_name, input) => {
    expect(sniffDocumentType(input)).toBeUndefined();
  });
});
