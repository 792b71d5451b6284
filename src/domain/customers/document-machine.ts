import type { DocumentStatus } from '../../store/records.js';

export type DocumentEvent = 'approve' | 'reject';

/** The document state machine: reviewed once; a reviewer may still overturn an approval. */
export const DOCUMENT_TRANSITIONS: Readonly<
  Record<DocumentStatus, Readonly<Partial<Record<DocumentEvent, DocumentStatus>>>>
> = {
  submitted: { approve: 'approved', reject: 'rejected' },
  approved: { reject: 'rejected' },
  rejected: {},
};

export function nextDocumentStatus(status: DocumentStatus, event: DocumentEvent): DocumentStatus | undefined {
  return DOCUMENT_TRANSITIONS[status][event];
}
