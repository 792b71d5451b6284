import { describe, expect, it } from 'vitest';
import { nextDocumentStatus } from './document-machine.js';

describe('document state machine', () => {
  it('reviews a submitted document once, and lets a reviewer overturn an approval', () => {
    expect(nextDocumentStatus('submitted', 'approve')).toBe('approved');
    expect(nextDocumentStatus('submitted', 'reject')).toBe('rejected');
    expect(nextDocumentStatus('approved', 'reject')).toBe('rejected');
  });

  it('never leaves rejected and never re-approves', () => {
    expect(nextDocumentStatus('rejected', 'approve')).toBeUndefined();
    expect(nextDocumentStatus('rejected', 'reject')).toBeUndefined();
    expect(nextDocumentStatus('approved', 'approve')).toBeUndefined();
  });
});
