// The documents the kit uploads: a minimal, well-formed one-page PDF (the spec accepts PDF, JPEG
// and PNG), and a text file that is none of them.

const PDF = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
  'trailer << /Root 1 0 R >>',
  '%%EOF',
  '',
].join('\n');

/** A multipart form `{type, file}` with the kit's PDF (or a text file when `kind` is `text`). */
export function documentForm(type: string, kind: 'pdf' | 'text' = 'pdf'): FormData {
  const form = new FormData();
  form.set('type', type);
  if (kind === 'pdf') form.set('file', new Blob([PDF], { type: 'application/pdf' }), 'conformance.pdf');
  else form.set('file', new Blob(['not a document\n'], { type: 'text/plain' }), 'conformance.txt');
  return form;
}
